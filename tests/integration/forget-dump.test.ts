// Forgetting leaves no trace of the account id (README "Forgetting and retention"): an account's
// runs (per-account and pooled classes, a skill), conversations, persona, OTLP traces and an
// experiment case go in through the public API; after the forget a full pg_dump of the database
// holds the id nowhere, while it did before. What stays is keyed: the forget mark and the kept
// runs' account are HMACs under PROCTOR_FORGET_KEY, which the database does not hold: npm start
// generates it into the data dir and reads it back after a restart.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, waitFor, type TestServer } from "../helpers/server";
import { call, login, type Caller } from "../helpers/http";
import { admin as adminKey, cycle, putAgent, refundRun } from "../helpers/learning";
import { act, postMessages } from "../helpers/persona";
import { jsonExport, postExport, recordAgentTrace } from "../helpers/otlp";
import { TEST_FORGET_KEY } from "../helpers/forget-key";
import { forgottenAccount } from "@/lib/accounts/forget-key";

let server: TestServer;
let admin: Caller;
// Distinctive: no other text of the dump contains it by chance.
const ACCOUNT = "acct-Qv7zDumpForget-5521";
const OTHER = "acct-kept-dump";

beforeAll(async () => {
  server = await startTestServer();
  admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
});
afterAll(async () => {
  await server?.stop();
});

const dump = () => execFileSync("pg_dump", ["--no-owner", server.databaseUrl], { encoding: "utf8", maxBuffer: 512 * 1024 * 1024 });

/** The tables whose data in a plain dump holds `needle` ("(outside data)" for any other line). */
function tablesHolding(text: string, needle: string): string[] {
  const found = new Set<string>();
  let table: string | null = null;
  for (const line of text.split("\n")) {
    if (table === null) {
      const copy = /^COPY public\.(\S+) /.exec(line);
      if (copy) table = copy[1];
      else if (line.includes(needle)) found.add("(outside data)");
    } else if (line === "\\.") table = null;
    else if (line.includes(needle)) found.add(table);
  }
  return [...found].sort();
}

async function postRun(agent: string, user: string, thread: string) {
  const r = await call(server.baseUrl, adminKey, "POST", `/api/v1/agents/${agent}/workflows`, { ...refundRun({ userId: user }), thread_id: thread });
  expect(r.status, r.text).toBe(201);
}

async function sendTrace(user: string) {
  const spans = recordAgentTrace({ agentId: "dump-otel", agentName: "Dump OTel", query: "Refund order Q7", user, thread: "otel-thread-1", calls: [{ tool: "lookup_order", args: { order_id: "Q7" } }], at: Date.now() - 60_000 });
  const res = await postExport(server.baseUrl, jsonExport(spans));
  expect(res.status).toBe(200);
}

/** Distinct accounts per pooled class, as the pooled scope's gate counts them. */
const pooledUsers = async () => (await server.sql.query(`SELECT canonical_hash, distinct_users FROM trajectory_classes WHERE agent_id = 'dump-pooled' ORDER BY 1`)).rows;

describe("forget leaves no trace of the account id in a pg_dump", () => {
  it("finds the id in the dump before the forget and nowhere after it", async () => {
    // Per-account learning: the account's own classes and skill, named by its id.
    await putAgent(server, "dump-own", { learning_scope: "user" });
    // Pooled learning: classes count the account among their distinct accounts.
    await putAgent(server, "dump-pooled", { learning_scope: "agent" });
    for (let i = 0; i < 6; i++) {
      await postRun("dump-own", ACCOUNT, "thread-a");
      await postRun("dump-pooled", ACCOUNT, "thread-b");
      await postRun("dump-pooled", OTHER, "thread-c");
    }
    const promoted = await cycle(server, "dump-own");
    expect(promoted.promoted).toHaveLength(1);
    await cycle(server, "dump-pooled");
    const skill = (await server.sql.query(`SELECT id FROM skills WHERE agent_id = 'dump-own' AND user_scope = $1`, [ACCOUNT])).rows[0];
    expect(skill).toBeDefined();

    // An experiment whose case names the account, with a reported run.
    const created = await call(server.baseUrl, adminKey, "POST", "/api/v1/agents/dump-own/experiments", {
      skill_id: skill.id, name: "dump", model: "m-dump",
      cases: [{ case_id: "c1", request: "Refund order E1", expected_answer: "Refunded E1", user_id: ACCOUNT }],
    });
    expect(created.status, created.text).toBe(201);
    const experiment = created.json.experiment_id;
    const ctx = await call(server.baseUrl, adminKey, "POST", `/api/v1/experiments/${experiment}/context`, { case_id: "c1", arm: "baseline" });
    expect(ctx.status, ctx.text).toBe(200);
    const reported = await call(server.baseUrl, adminKey, "POST", `/api/v1/experiments/${experiment}/runs`, {
      case_id: "c1", arm: "baseline", steps: [{ tool: "lookup_order" }, { tool: "issue_refund" }], answer: "Refunded E1",
      prompt_tokens: 900, completion_tokens: 40, llm_calls: 2, inference_ms: 100, end_to_end_ms: 105,
    });
    expect(reported.status, reported.text).toBe(201);

    // OTLP: one trace assembled into runs by the server's worker, and the staged spans it keeps.
    await sendTrace(ACCOUNT);
    await waitFor(async () => (await server.sql.query(`SELECT count(*)::int AS n FROM workflows WHERE agent_id = 'dump-otel'`)).rows[0].n > 0, 30_000);

    // A persona: an approved version, a pending suggestion, their reviews; conversations.
    await putAgent(server, "dump-tutor");
    await postMessages(server, "dump-tutor", ACCOUNT, "talk-1", ["My goal is to learn sourdough baking."]);
    const first = (await act(server, admin, { user_id: ACCOUNT, action: "reflect" })).json;
    expect((await act(server, admin, { user_id: ACCOUNT, action: "approve", revision: first.revision, proposal_id: first.pending.id })).status).toBe(200);
    await postMessages(server, "dump-tutor", ACCOUNT, "talk-1", ["My goal is to learn rye bread too."]);
    const second = (await act(server, admin, { user_id: ACCOUNT, action: "reflect" })).json;
    expect(second.pending).not.toBeNull();
    // Daily review on: a queued job names the account.
    const daily = await act(server, admin, { user_id: ACCOUNT, action: "schedule", revision: second.revision, daily_enabled: true });
    expect(daily.status, daily.text).toBe(200);

    const usersBefore = await pooledUsers();
    expect(usersBefore.some((c) => c.distinct_users === 2)).toBe(true);
    // What held the id before: every place the forget must reach, as this test feeds them.
    expect(tablesHolding(dump(), ACCOUNT)).toEqual([
      "account_agent_summaries", "account_personas", "account_summaries", "conversation_messages", "experiment_cases", "jobs", "otlp_spans",
      "persona_history", "persona_proposals", "persona_reviews", "skills", "thread_summaries", "trajectory_class_days",
      "trajectory_class_queries", "trajectory_class_users", "trajectory_classes", "workflows",
    ]);

    const gone = await call(server.baseUrl, adminKey, "DELETE", `/api/v1/accounts/${ACCOUNT}?reason=erasure`);
    expect(gone.status, gone.text).toBe(200);

    const after = dump();
    expect(tablesHolding(after, ACCOUNT)).toEqual([]);
    expect(after).not.toContain(ACCOUNT);
    expect(after).not.toContain(TEST_FORGET_KEY);
    expect(tablesHolding(after, "forgotten:")).toEqual(expect.arrayContaining(["jobs", "skills", "trajectory_class_users", "workflows"]));
    // The learning evidence stays: pooled classes still count two accounts; the skill stays.
    expect(await pooledUsers()).toEqual(usersBefore);
    expect((await server.sql.query(`SELECT count(*)::int AS n FROM skills WHERE id = $1`, [skill.id])).rows[0].n).toBe(1);
    expect(after).toContain(OTHER);

    // The forget mark still knows the account: forgetting again answers 200 with nothing left.
    const again = await call(server.baseUrl, adminKey, "DELETE", `/api/v1/accounts/${ACCOUNT}`);
    expect(again.status, again.text).toBe(200);
    expect(again.json).toMatchObject({ runs_forgotten: 0, messages_deleted: 0 });
    expect(dump()).not.toContain(ACCOUNT);
  });

  it("npm start generates the forget key into the data dir, outside the database, and keeps it across restarts", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "proctor-forget-key-"));
    const own = await startTestServer({ dataDir, env: { PROCTOR_FORGET_KEY: "" } });
    try {
      await putAgent(own, "key-tutor");
      await postMessages(own, "key-tutor", "acct-key-test", "talk-k", ["hello"]);
      expect((await call(own.baseUrl, adminKey, "DELETE", "/api/v1/accounts/acct-key-test")).status).toBe(200);
      const file = path.join(dataDir, "forget-key");
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const key = readFileSync(file, "utf8").trim();
      expect(key).not.toBe(TEST_FORGET_KEY);
      const marks = (await own.sql.query(`SELECT account FROM account_forget_marks`)).rows.map((r) => r.account);
      expect(marks).toEqual([forgottenAccount("acct-key-test", Buffer.from(key, "utf8"))]);
      expect(execFileSync("pg_dump", ["--no-owner", own.databaseUrl], { encoding: "utf8", maxBuffer: 512 * 1024 * 1024 })).not.toContain(key);
      // After a restart the same key recognises the account (it has no data left: only the mark knows it).
      await own.restart();
      expect((await call(own.baseUrl, adminKey, "DELETE", "/api/v1/accounts/acct-key-test")).status).toBe(200);
      expect((await call(own.baseUrl, adminKey, "DELETE", "/api/v1/accounts/acct-never-seen")).status).toBe(404);
    } finally {
      await own.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
