// Forgetting and retention (README "Forgetting and retention") on both databases: forgetting an account leaves none of its text in
// any table (every text and jsonb column is searched for a marker planted in its query, step
// arguments and results, answer, messages and persona goals) while class statistics still equal
// a recount and its skill stays; a reflection racing the forget writes nothing and a later
// persona gets a new identity; run retention strips old runs without moving a gate figure.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createPrismaClient, type Db } from "@/lib/db/prisma";
import { PrismaClient } from "@/lib/db/generated/client";
import { PrismaPg } from "@prisma/adapter-pg";
import { isDomainError } from "@/lib/errors";
import type { AuditContext } from "@/lib/audit/record";
import { reflectPersona } from "@/lib/persona/operations";
import { applyRetention } from "@/lib/learning/monitor/retention";
import { forgottenAccount } from "@/lib/accounts/forget-key";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, testDatabase, waitFor, type TestServer } from "../helpers/server";
import { call, login, type Caller } from "../helpers/http";
import { admin as adminKey, cycle, postRuns, putAgent } from "../helpers/learning";
import { act, postMessages, viewState } from "../helpers/persona";
import { callAction } from "../helpers/actions";
import { proposalReply, startFakeOpenAI, type FakeOpenAI } from "../helpers/fake-openai-persona";

let server: TestServer;
let db: Db;
let admin: Caller;

beforeAll(async () => {
  server = await startTestServer();
  db = createPrismaClient(server.databaseUrl, 2);
  admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
});
afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
});

const forget = (userId: string, query = "") => call(server.baseUrl, adminKey, "DELETE", `/api/v1/accounts/${userId}${query}`);

/** Every text, text[] and json(b) column of every table holding `marker`, as "table.column". */
async function columnsHolding(marker: string): Promise<string[]> {
  const cols = await server.sql.query<{ t: string; c: string }>(
    `SELECT table_name AS t, column_name AS c FROM information_schema.columns
     WHERE table_schema = current_schema() AND (data_type IN ('text', 'character varying', 'json', 'jsonb') OR udt_name IN ('_text', '_varchar'))`,
  );
  expect(cols.rows.length).toBeGreaterThan(50);
  // One statement: a branch per column, each answering its name when some row holds the marker.
  const branches = cols.rows.map(({ t, c }) => `(SELECT '${t}.${c}' AS hit FROM "${t}" WHERE "${c}"::text LIKE $1 LIMIT 1)`);
  const r = await server.sql.query<{ hit: string }>(branches.join(" UNION ALL "), [`%${marker}%`]);
  return r.rows.map((x) => x.hit).sort();
}

/** Classes whose stored statistics differ from a recount of their runs (and distinct-query rows). */
async function classesOffTheirRuns(agentId: string) {
  const r = await server.sql.query(
    `SELECT c.user_scope, c.canonical_hash, c.executions, c.successes, c.distinct_queries,
       (SELECT count(*)::int FROM workflows w WHERE w.agent_id = c.agent_id AND w.user_scope = c.user_scope AND w.canonical_hash = c.canonical_hash) AS runs,
       (SELECT count(*)::int FROM workflows w WHERE w.agent_id = c.agent_id AND w.user_scope = c.user_scope AND w.canonical_hash = c.canonical_hash AND w.outcome = 'SUCCESS') AS ok,
       (SELECT count(DISTINCT NULLIF(w.normalized_query, ''))::int FROM workflows w WHERE w.agent_id = c.agent_id AND w.user_scope = c.user_scope AND w.canonical_hash = c.canonical_hash) AS queries,
       (SELECT count(*)::int FROM trajectory_class_queries q WHERE q.agent_id = c.agent_id AND q.user_scope = c.user_scope AND q.canonical_hash = c.canonical_hash) AS query_rows
     FROM trajectory_classes c WHERE c.agent_id = $1`,
    [agentId],
  );
  expect(r.rows.length).toBeGreaterThan(0);
  return r.rows.filter((c) => c.executions !== c.runs || c.successes !== c.ok || c.distinct_queries !== c.queries || c.distinct_queries !== c.query_rows);
}

const PERSONA_TABLES = ["account_personas", "persona_reviews", "persona_proposals", "persona_history", "conversation_messages"];

/** The account's rows per persona table, only the tables holding some. */
async function personaRowsOf(userId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of PERSONA_TABLES) {
    const n = (await server.sql.query(`SELECT count(*)::int AS n FROM ${table} WHERE user_id = $1`, [userId])).rows[0].n;
    if (n > 0) counts[table] = n;
  }
  return counts;
}

/** Runs `fn` with this process's reflections on a loopback model whose one proposal answers only once released. */
async function withHeldModel(goals: string, fn: (fake: FakeOpenAI, release: () => void) => Promise<void>) {
  const fake = await startFakeOpenAI();
  let release!: () => void;
  fake.queue({ ...proposalReply(goals, ["m1"]), hold: new Promise<void>((r) => (release = r)) });
  vi.stubEnv("PROCTOR_LLM_BASE_URL", fake.baseUrl);
  vi.stubEnv("PROCTOR_LLM_API_KEY", "test");
  try {
    await fn(fake, release);
  } finally {
    release();
    // As they were (unset stays unset): the next file in this worker reads the same environment.
    vi.unstubAllEnvs();
    await fake.close();
  }
}

/** The reflection operation run in this process (as the console runs it), settled either way. */
function reflectInProcess(userId: string, client: Db = db): Promise<{ state: unknown; error: unknown }> {
  const by: AuditContext = { actor: { type: "user", id: "u-admin", label: ADMIN_EMAIL, role: "ADMIN" }, requestId: "req-race", clientHash: null };
  return reflectPersona(client, { userId, trigger: "manual" }, by).then(
    (state) => ({ state, error: null }),
    (error: unknown) => ({ state: null, error }),
  );
}

/** Sessions of the database waiting on a lock `pid` holds. */
async function blockedBy(pid: number): Promise<number[]> {
  const r = await server.sql.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))`, [pid]);
  return r.rows.map((x) => x.pid);
}

describe(`forget an account (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("leaves none of the account's text in any table, keeps statistics and its skill, and is idempotent", async () => {
    const MARKER = "ZQX-forget-marker-4417";
    const agent = "forgetful";
    // Per-account classes: each account gets a skill of its own (pooled forgetting: learning-scope.test.ts).
    await putAgent(server, agent, { learning_scope: "user" });
    const run = (user: string, i: number, marked: boolean) => ({
      workflow_id: `fg-${user}-${i}`,
      user_id: user,
      query: `Refund order ORD-${i}${marked && i === 0 ? ` ${MARKER}` : ""}`,
      steps: [
        { tool: "lookup_order", arguments: { order_id: `ORD-${i}`, note: marked ? MARKER : "plain" }, result: { status: "paid", memo: marked ? MARKER : "-" } },
        { tool: "issue_refund", arguments: { order_id: `ORD-${i}`, amount: 12.5 }, result: { accepted: true } },
      ],
      outcome: i === 4 ? "failure" : "success",
      answer: marked ? `Done, ${MARKER}` : "Done",
    });
    for (const user of ["acct-forget", "acct-keep"]) {
      for (let i = 0; i < 6; i++) {
        const r = await call(server.baseUrl, adminKey, "POST", `/api/v1/agents/${agent}/workflows`, run(user, i, user === "acct-forget"));
        expect(r.status, r.text).toBe(201);
      }
    }
    const report = await cycle(server, agent);
    expect(report.promoted).toHaveLength(2);
    const skill = (await server.sql.query(`SELECT id, status FROM skills WHERE agent_id = $1 AND user_scope = 'acct-forget'`, [agent])).rows[0];

    // A persona with an approved version, a pending suggestion and their reviews, all holding the marker.
    await postMessages(server, agent, "acct-forget", "t-1", [`My goal is to master ${MARKER} cooking.`]);
    const s1 = (await act(server, admin, { user_id: "acct-forget", action: "reflect" })).json;
    expect(s1.pending.changes.goals.new).toContain(MARKER);
    expect((await act(server, admin, { user_id: "acct-forget", action: "approve", revision: s1.revision, proposal_id: s1.pending.id })).status).toBe(200);
    await postMessages(server, agent, "acct-forget", "t-1", [`My goal is to teach ${MARKER} baking.`]);
    expect((await act(server, admin, { user_id: "acct-forget", action: "reflect" })).json.pending).not.toBeNull();
    expect(await columnsHolding(MARKER)).toEqual(
      expect.arrayContaining(["workflows.query", "workflows.steps", "workflows.answer", "conversation_messages.text", "account_personas.goals", "persona_proposals.goals_new", "persona_history.goals_after", "skills.queries"]),
    );

    const gone = await forget("acct-forget", "?reason=Erasure%20request%2042");
    expect(gone.status, gone.text).toBe(200);
    expect(gone.json).toEqual({
      forgotten: true,
      runs_forgotten: 6,
      messages_deleted: 2,
      persona_versions_deleted: 2,
      proposals_deleted: 2,
      reviews_deleted: 2,
      skills_cleared: 1,
    });
    expect(await columnsHolding(MARKER)).toEqual([]);
    expect(await classesOffTheirRuns(agent)).toEqual([]);

    // The runs stay, marked and stripped, under one keyed name; the other account's are untouched; the skill stays and says why its samples are empty.
    const runs = await server.sql.query(`SELECT user_id, user_scope, query, steps, outcome, canonical_hash, forgotten_at FROM workflows WHERE agent_id = $1 ORDER BY workflow_id`, [agent]);
    const mine = runs.rows.filter((r) => r.forgotten_at);
    expect(mine).toHaveLength(6);
    expect(new Set(mine.map((r) => r.user_id)).size).toBe(1);
    expect(mine[0].user_id).toMatch(/^forgotten:[0-9a-f]{20}$/);
    expect(mine.every((r) => r.user_scope === r.user_id && r.query === "" && r.steps.length === 0 && r.canonical_hash)).toBe(true);
    expect(mine.filter((r) => r.outcome === "FAILURE")).toHaveLength(1);
    expect(runs.rows.filter((r) => r.user_id === "acct-keep").every((r) => r.query.startsWith("Refund order") && r.forgotten_at === null)).toBe(true);
    expect((await server.sql.query(`SELECT status FROM skills WHERE id = $1`, [skill.id])).rows[0].status).toBe(skill.status);
    const page = await call(server.baseUrl, admin, "GET", `/skills?agent=${agent}&skill=${skill.id}`);
    expect(page.text).toContain("sample runs were forgotten");
    const runPage = await call(server.baseUrl, admin, "GET", `/workflows/runs/${(await server.sql.query(`SELECT id FROM workflows WHERE agent_id = $1 AND forgotten_at IS NOT NULL LIMIT 1`, [agent])).rows[0].id}`);
    expect(runPage.text).toContain("Its account was forgotten");

    // Audited under the pseudonym only; forgetting again finds nothing; an unknown account is a 404.
    const audit = await server.sql.query(`SELECT target_type, target_id, details FROM audit_events WHERE action = 'account.forgotten'`);
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0].target_type).toBe("account");
    expect(audit.rows[0].target_id).not.toContain("acct-forget");
    expect(audit.rows[0].details).toMatchObject({ runs_forgotten: 6, reason: "Erasure request 42" });
    expect((await server.sql.query(`SELECT count(*)::int AS n FROM audit_events WHERE target_id = 'acct-forget' OR details::text LIKE '%acct-forget%'`)).rows[0].n).toBe(0);
    const again = await forget("acct-forget");
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ runs_forgotten: 0, messages_deleted: 0, persona_versions_deleted: 0, proposals_deleted: 0, reviews_deleted: 0, skills_cleared: 0 });
    const unknown = await forget("acct-never-seen");
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).toContain("application/problem+json");

    // The console: the persona page offers it to admins; the action needs a reason and forgets the same way.
    expect((await call(server.baseUrl, admin, "GET", "/persona-evolution?user_id=acct-keep")).text).toContain("Forget this account");
    expect((await callAction(server, admin, "lib/actions/accounts.ts#forgetAccount", { user_id: "acct-keep", reason: "" })).kind).toBe("validation_error");
    const viaConsole = await callAction(server, admin, "lib/actions/accounts.ts#forgetAccount", { user_id: "acct-keep", reason: "Asked by support ticket" });
    expect(viaConsole.kind).toBe("ok");
    expect(viaConsole.data.runs_forgotten).toBe(6);
    expect(await classesOffTheirRuns(agent)).toEqual([]);
  });

  it("a reflection racing the forget writes nothing, and a later persona gets a new identity", async () => {
    const MARKER = "ZQX-race-marker-9021";
    const user = "acct-race";
    await putAgent(server, "racer");
    await postMessages(server, "racer", user, "t-r", [`My goal is to learn ${MARKER} knitting.`]);
    const before = (await act(server, admin, { user_id: user, action: "reflect" })).json;
    expect((await act(server, admin, { user_id: user, action: "dismiss", revision: before.revision, proposal_id: before.pending.id })).status).toBe(200);
    const oldIdentity = (await server.sql.query(`SELECT persona_id FROM account_personas WHERE user_id = $1`, [user])).rows[0].persona_id;
    await postMessages(server, "racer", user, "t-r", [`My goal is to knit a ${MARKER} scarf.`]);

    // The same reflection operation, in this process, with the model a loopback server that answers when told.
    await withHeldModel(`Knit ${MARKER}`, async (fake, release) => {
      const reflecting = reflectInProcess(user);
      await waitFor(async () => fake.requests.length === 1, 30_000);
      const gone = await forget(user);
      expect(gone.status, gone.text).toBe(200);
      expect(gone.json).toMatchObject({ reviews_deleted: 2, proposals_deleted: 1, messages_deleted: 2 });
      release();
      expect(isDomainError((await reflecting).error, "not_found")).toBe(true);
    });
    expect(await personaRowsOf(user)).toEqual({});
    expect(await columnsHolding(MARKER)).toEqual([]);
    expect((await server.sql.query(`SELECT mark FROM account_forget_marks WHERE account = $1`, [forgottenAccount(user)])).rows[0].mark).toBe(1);

    // New conversations after the forget start a new persona: a new identity, from version 1.
    await postMessages(server, "racer", user, "t-r2", ["My goal is to learn crochet."]);
    const fresh = (await act(server, admin, { user_id: user, action: "reflect" })).json;
    expect(fresh.persona.version).toBe(1);
    const newIdentity = (await server.sql.query(`SELECT persona_id FROM account_personas WHERE user_id = $1`, [user])).rows[0].persona_id;
    expect(newIdentity).not.toBe(oldIdentity);
  });

  // PostgreSQL only: PGlite serves one transaction at a time, so there a reflection's claim cannot
  // interleave with a forget (the test above covers the model answering after the forget there).
  if (testDatabase() === "postgres") {
    it("a first reflection claiming while the forget commits leaves no persona, review or proposal", async () => {
      const user = "acct-race-first";
      await putAgent(server, "racer");
      await postMessages(server, "racer", user, "t-f", ["My goal is to learn ZQX-first-race pottery."]);
      // Another session creating this account's persona row holds its insert open: the reflection's
      // claim has read the messages and now waits on that key, its transaction open, until released.
      const holder = await server.sql.connect();
      // The claim's transaction waits on purpose, longer than Prisma's default 5 s under load.
      const patient = new PrismaClient({ adapter: new PrismaPg({ connectionString: server.databaseUrl, max: 2 }), transactionOptions: { timeout: 120_000 } });
      let ended: { state: unknown; error: unknown } | undefined;
      try {
        await holder.query("BEGIN");
        const holderPid = (await holder.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0].pid;
        await holder.query(
          `INSERT INTO account_personas (user_id, agent_id, persona_id, name, role, updated_at) VALUES ($1, 'racer', 'prs_holder', 'holder', 'holder', now())`,
          [user],
        );
        await withHeldModel("Throw ZQX-first-race pots", async (_fake, release) => {
          const reflecting = reflectInProcess(user, patient);
          let waiting: number[] = [];
          await waitFor(async () => (waiting = await blockedBy(holderPid)).length === 1, 30_000);
          const [claimPid] = waiting;
          let answered = false;
          const forgetting = forget(user).finally(() => (answered = true));
          // The forget either finishes meanwhile or waits for the claim's transaction; then the claim goes on.
          await waitFor(async () => answered || (await blockedBy(claimPid)).length > 0, 30_000);
          await holder.query("ROLLBACK");
          const gone = await forgetting;
          expect(gone.status, gone.text).toBe(200);
          release();
          ended = await reflecting;
        });
      } finally {
        holder.release();
        await patient.$disconnect();
      }
      expect(await personaRowsOf(user)).toEqual({});
      expect(await columnsHolding("ZQX-first-race")).toEqual([]);
      expect(isDomainError(ended?.error, "not_found")).toBe(true);
    });
  }
});

describe(`retention (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("strips old runs and deletes old messages without moving a gate figure, baseline or recount", async () => {
    const agent = "keeper";
    for (const bad of [0, 3651, 1.5]) {
      const r = await call(server.baseUrl, adminKey, "PUT", `/api/v1/agents/${agent}`, { name: "Keeper", tools: [], learning: { run_retention_days: bad } });
      expect(r.status, `run_retention_days ${bad}`).toBe(400);
    }
    expect((await call(server.baseUrl, adminKey, "GET", `/api/v1/agents/${agent}`)).status).toBe(404);
    // One account's runs make a class to distill only in its own scope.
    await putAgent(server, agent, { run_retention_days: 30, conversation_retention_days: 30, learning_scope: "user" });
    await postRuns(server, agent, 5, { userId: "acct-r" });
    const [skillId] = (await cycle(server, agent)).promoted;
    // A retired class: its gates count the runs after the demotion from the runs themselves.
    expect((await call(server.baseUrl, adminKey, "POST", `/api/v1/skills/${skillId}/demote`, { reason: "drifted" })).status).toBe(200);
    await postRuns(server, agent, 3, { userId: "acct-r" });
    await postRuns(server, agent, 1, { userId: "acct-r", failed: true });
    await postRuns(server, agent, 2, { userId: "acct-r", emailPath: true });
    await postMessages(server, agent, "acct-r", "t-k", ["Where is my order?", "Thanks"]);

    const figures = async () => ({
      classes: (await call(server.baseUrl, adminKey, "GET", `/api/v1/agents/${agent}/classes`)).json,
      skill: (await call(server.baseUrl, adminKey, "GET", `/api/v1/skills/${skillId}`)).json,
      days: (await server.sql.query(`SELECT * FROM trajectory_class_days WHERE agent_id = $1 ORDER BY canonical_hash, day`, [agent])).rows,
    });
    const before = await figures();
    const off = { runDays: null, conversationDays: null };
    expect(await applyRetention(db, { defaults: off })).toEqual({ runsExpired: 0, messagesDeleted: 0, quotesExpired: 0 });

    // 40 days on, everything is past the agent's 30 days; batches of 4 take several statements.
    const later = new Date(Date.now() + 40 * 24 * 3600_000);
    expect(await applyRetention(db, { now: later, batchSize: 4, defaults: off })).toEqual({ runsExpired: 11, messagesDeleted: 2, quotesExpired: 0 });
    const runs = await server.sql.query(`SELECT query, steps, answer, expired_at, canonical_hash FROM workflows WHERE agent_id = $1`, [agent]);
    expect(runs.rows.every((r) => r.query === "" && r.steps.length === 0 && r.expired_at && r.canonical_hash)).toBe(true);
    expect(await figures()).toEqual(before);
    expect(await classesOffTheirRuns(agent)).toEqual([]);
    expect(await applyRetention(db, { now: later, defaults: off })).toEqual({ runsExpired: 0, messagesDeleted: 0, quotesExpired: 0 });

    // The agent page says what is kept and for how long.
    const page = await call(server.baseUrl, admin, "GET", `/agents/${agent}`);
    expect(page.text).toContain("Runs keep their query, steps and answer for 30 days");
  });

  it("expires the quotes persona reflections copied from the messages it deletes, and only those", async () => {
    const OLD = "ZQX-old-quote-5150";
    const NEW = "ZQX-new-quote-5151";
    const agent = "quoter";
    const user = "acct-q";
    await putAgent(server, agent, { conversation_retention_days: 30 });
    // An approved version citing the older message, then a pending suggestion citing the newer one.
    await postMessages(server, agent, user, "t-q", [`My goal is to master ${OLD} cooking.`]);
    const s1 = (await act(server, admin, { user_id: user, action: "reflect" })).json;
    expect((await act(server, admin, { user_id: user, action: "approve", revision: s1.revision, proposal_id: s1.pending.id })).status).toBe(200);
    await postMessages(server, agent, user, "t-q", [`My goal is to teach ${NEW} baking.`]);
    expect((await act(server, admin, { user_id: user, action: "reflect" })).json.pending).not.toBeNull();
    const quoted = ["persona_history.evidence", "persona_proposals.evidence", "conversation_messages.text"];
    expect(await columnsHolding(OLD)).toEqual(expect.arrayContaining(quoted));

    // The cutoff falls between the two messages: 30 days after the newer one's time.
    const newer = (await server.sql.query(`SELECT max(timestamp) AS t FROM conversation_messages WHERE user_id = $1`, [user])).rows[0].t as Date;
    const now = new Date(newer.getTime() + 30 * 24 * 3600_000);
    const off = { runDays: null, conversationDays: null };
    // Two rows quote the older message: the approved proposal and the version it made.
    expect(await applyRetention(db, { now, batchSize: 1, defaults: off })).toEqual({ runsExpired: 0, messagesDeleted: 1, quotesExpired: 2 });
    expect((await columnsHolding(OLD)).filter((c) => quoted.includes(c))).toEqual([]);
    expect(await columnsHolding(NEW)).toEqual(expect.arrayContaining(["persona_proposals.evidence", "conversation_messages.text"]));
    expect(await applyRetention(db, { now, defaults: off })).toEqual({ runsExpired: 0, messagesDeleted: 0, quotesExpired: 0 });

    // The persona keeps which memory a change rested on, and says its quote expired.
    const state = (await viewState(server, admin, user)).json;
    const applied = state.persona.evolution_history.find((h: { action: string }) => h.action === "applied");
    expect(applied.evidence).toEqual([expect.objectContaining({ text: "", expired: true, thread_id: "t-q" })]);
    expect(state.pending.evidence.every((e: { text: string; expired?: boolean }) => e.text.includes(NEW) && !e.expired)).toBe(true);
  });
});
