// The review inbox and the accounts list on seeded data: each kind's count (the loader called
// in-process on the server's database) moves with the decision it waits for, the home page
// and the sidebar show them for admins and only the learning kinds for viewers, and the
// accounts page lists the accounts with their pending suggestion. Persona decisions carry a
// reason: optional on the published route, required by the console to dismiss, stored with the
// decided suggestion and never in the audit row.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/prisma";
import { inboxCounts } from "@/lib/console/inbox";
import { listAccounts } from "@/lib/accounts/account-list";
import { personaDecisions } from "@/lib/persona/decisions";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";
import { call, login, type Caller } from "../helpers/http";
import { callAction } from "../helpers/actions";
import { createConsoleUser } from "../helpers/console";
import { cycle, postRuns, putAgent } from "../helpers/learning";
import { act, auditRows, postMessages, viewState } from "../helpers/persona";
import { reviewDb } from "../helpers/review";
import { drained } from "../helpers/shadow";

const REVIEWED = "inbox-reviewed"; // review first: distilling creates a shadow skill
const READY = "inbox-ready"; // readiness at one observation: its shadow skill is ready after one run
const TUTOR = "inbox-tutor";
const ADMIN_CAN = () => true;
const VIEWER_CAN = (scope: string) => scope === "learning:read";

let server: TestServer;
let db: Db;
let admin: Caller;
let viewer: Caller;

beforeAll(async () => {
  server = await startTestServer({ env: { PROCTOR_PERSONA_ACTIONS: "1", PROCTOR_LLM_BASE_URL: "", PROCTOR_LLM_API_KEY: "" } });
  db = reviewDb(server);
  admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  await createConsoleUser(server.baseUrl, admin, { email: "viewer@inbox.test", role: "VIEWER", password: "viewer-password-1" });
  viewer = await login(server.baseUrl, "viewer@inbox.test", "viewer-password-1");
  // Per-account classes: one account's runs make a class ready (pooled, it would need three accounts).
  await putAgent(server, REVIEWED, { require_shadow: true, learning_scope: "user" });
  await putAgent(server, READY, {
    require_shadow: true,
    shadow_evaluation_enabled: true,
    shadow_readiness_min_observations: 1,
    shadow_readiness_min_trajectory_match_rate: 0,
    shadow_readiness_min_matched_success_rate: 0,
  });
  await putAgent(server, TUTOR);
});
afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
});

describe(`review inbox (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("counts what awaits a decision, by kind and agent, and moves with each decision", async () => {
    expect(await inboxCounts(db, ADMIN_CAN)).toEqual({
      ready_skills: 0, shadow_skills: 0, ready_classes: 0, deviations: 0, dead_jobs: 0, unmapped_traces: 0, persona_proposals: 0, suspended_procedures: 0, failed_webhooks: 0,
    });

    // Enough successful runs with distinct queries: each agent's class is ready to distill.
    await postRuns(server, REVIEWED, 6, { userId: "acct-runs" });
    await postRuns(server, READY, 6);
    expect(await inboxCounts(db, ADMIN_CAN)).toMatchObject({ ready_classes: 2, shadow_skills: 0, ready_skills: 0 });
    expect(await inboxCounts(db, ADMIN_CAN, REVIEWED)).toMatchObject({ ready_classes: 1 });

    // Distilling creates shadow skills: the classes are in review; one skill waits, the other is
    // ready once the worker has observed it on a run.
    await cycle(server, REVIEWED);
    await cycle(server, READY);
    expect(await inboxCounts(db, ADMIN_CAN)).toMatchObject({ ready_classes: 0, shadow_skills: 2, ready_skills: 0 });
    await postRuns(server, READY, 1);
    await drained(server, READY);
    expect(await inboxCounts(db, ADMIN_CAN)).toMatchObject({ ready_classes: 0, shadow_skills: 1, ready_skills: 1 });
    expect(await inboxCounts(db, ADMIN_CAN, READY)).toMatchObject({ shadow_skills: 0, ready_skills: 1 });

    // A persona suggestion waits for the account's decision; a dead job for a retry.
    await postMessages(server, TUTOR, "acct-goals", "t-1", ["My goal is to pass the B2 Spanish exam."]);
    expect((await act(server, admin, { user_id: "acct-goals", action: "reflect" })).status).toBe(200);
    await server.sql.query(`INSERT INTO jobs (kind, agent_id, payload, status, attempts) VALUES ('shadow_evaluation', $1, '{}', 'DEAD', 5)`, [REVIEWED]);
    const all = await inboxCounts(db, ADMIN_CAN);
    expect(all).toMatchObject({ persona_proposals: 1, dead_jobs: 1 });
    expect(await inboxCounts(db, ADMIN_CAN, READY)).toMatchObject({ persona_proposals: 0, dead_jobs: 0 });
    // Agents being deleted count nowhere: their skills, dead jobs and their accounts' suggestions.
    await server.sql.query("UPDATE agents SET deleting_at = now() WHERE id = ANY($1)", [[REVIEWED, TUTOR]]);
    expect(await inboxCounts(db, ADMIN_CAN)).toMatchObject({ shadow_skills: 0, ready_skills: 1, persona_proposals: 0, dead_jobs: 0 });
    await server.sql.query("UPDATE agents SET deleting_at = NULL WHERE id = ANY($1)", [[REVIEWED, TUTOR]]);
    expect(await inboxCounts(db, ADMIN_CAN)).toEqual(all);

    // Viewers see only the learning kinds; persona and ledger kinds are not even counted.
    expect(Object.keys(await inboxCounts(db, VIEWER_CAN)).sort()).toEqual(["dead_jobs", "deviations", "ready_classes", "ready_skills", "shadow_skills", "unmapped_traces"]);

    // The home page groups and links them; the sidebar carries the counts on every page.
    const home = await call(server.baseUrl, admin, "GET", "/");
    expect(home.status).toBe(200);
    expect(home.text).toContain("Persona suggestions");
    expect(home.text).toContain("/persona-evolution?user_id=acct-goals");
    expect(home.text).toContain("Skills ready for review");
    const total = Object.values(all).reduce((a, n) => a + n, 0);
    expect(home.text).toContain(`${total} items awaiting a decision`);
    const agents = await call(server.baseUrl, admin, "GET", "/agents");
    expect(agents.text).toMatch(/aria-label="Awaiting a decision"/);
    // The sidebar counts follow the agent in scope (the URL's, a run page's run's) and so does
    // the switcher from the first byte; another scope's counts come from the console route.
    const sidebar = (text: string) => /aria-label="Awaiting a decision"[\s\S]*?<\/ul>/.exec(text)?.[0] ?? "";
    expect(sidebar((await call(server.baseUrl, admin, "GET", "/workflows")).text)).toContain("Persona suggestions");
    const scoped = sidebar((await call(server.baseUrl, admin, "GET", `/workflows?agent=${READY}`)).text);
    expect(scoped).toContain("Skills ready for review");
    expect(scoped).not.toContain("Persona suggestions");
    expect(scoped).not.toContain("Dead jobs");
    const { rows: [run] } = await server.sql.query("SELECT id FROM workflows WHERE agent_id = $1 LIMIT 1", [READY]);
    const runPage = await call(server.baseUrl, admin, "GET", `/workflows/runs/${encodeURIComponent(run.id)}`);
    expect(runPage.text).toMatch(new RegExp(`<option value="${READY}" selected=""`));
    expect(sidebar(runPage.text)).not.toContain("Persona suggestions");
    const counted = await call(server.baseUrl, admin, "GET", `/api/console/inbox?agent=${READY}`);
    expect(counted.json).toEqual(await inboxCounts(db, ADMIN_CAN, READY));
    const viewerHome = await call(server.baseUrl, viewer, "GET", "/");
    expect(viewerHome.status).toBe(200);
    expect(viewerHome.text).not.toContain("acct-goals");
    expect(viewerHome.text).toContain("Skills ready for review");
  });

  it("lists accounts from runs and conversations, searchable, with the pending suggestion", async () => {
    const { rows, total } = await listAccounts(db, { after: null, pageSize: 25 });
    expect(total).toBe(2);
    expect(rows.map((r) => r.userId).sort()).toEqual(["acct-goals", "acct-runs"]);
    const goals = rows.find((r) => r.userId === "acct-goals")!;
    expect(goals).toMatchObject({ agentId: TUTOR, runs: 0, threads: 1, pending: true, persona: { version: 1, status: "proposed" } });
    expect(rows.find((r) => r.userId === "acct-runs")).toMatchObject({ agentId: REVIEWED, runs: 6, pending: false, persona: null });
    expect((await listAccounts(db, { q: "RUNS", after: null, pageSize: 25 })).rows.map((r) => r.userId)).toEqual(["acct-runs"]);
    expect((await listAccounts(db, { pending: true, after: null, pageSize: 25 })).rows.map((r) => r.userId)).toEqual(["acct-goals"]);
    // An agent being deleted takes its accounts' activity off the list at once.
    await server.sql.query("UPDATE agents SET deleting_at = now() WHERE id = $1", [TUTOR]);
    expect((await listAccounts(db, { after: null, pageSize: 25 })).rows.map((r) => r.userId)).toEqual(["acct-runs"]);
    await server.sql.query("UPDATE agents SET deleting_at = NULL WHERE id = $1", [TUTOR]);

    const page = await call(server.baseUrl, admin, "GET", "/accounts?q=goals");
    expect(page.status).toBe(200);
    expect(page.text).toContain("/persona-evolution?user_id=acct-goals");
    expect(page.text).toContain("/traces?agent_id=inbox-tutor&amp;user_id=acct-goals");
    expect(page.text).not.toContain("acct-runs");
    expect((await call(server.baseUrl, viewer, "GET", "/accounts")).status).toBe(403);
  });

  it("keeps a dismissed suggestion with its goals and the admin's reason, out of the audit row", async () => {
    const before = (await viewState(server, admin, "acct-goals")).json;
    const body = { user_id: "acct-goals", action: "dismiss", revision: before.revision, proposal_id: before.pending.id };
    // The console asks why; the published route does not (its body rules are unchanged).
    const unexplained = await callAction(server, admin, "lib/actions/persona.ts#runPersonaAction", body);
    expect(unexplained.kind).toBe("validation_error");
    expect(unexplained.error!.fields![0].message).toMatch(/reason is required/);
    expect((await viewState(server, admin, "acct-goals")).json.pending.id).toBe(before.pending.id);
    expect((await act(server, admin, { ...body, reason: 42 })).status).toBe(400);

    const reason = "Exam goal already covered by the course plan";
    const done = await callAction(server, admin, "lib/actions/persona.ts#runPersonaAction", { ...body, reason });
    expect(done.kind, done.text).toBe("ok");
    expect(done.data.pending).toBeNull();
    const decisions = await personaDecisions(db, "acct-goals");
    expect(Object.values(decisions.proposals)).toEqual([
      expect.objectContaining({ status: "dismissed", decision_reason: reason, decided_by: `operator:${ADMIN_EMAIL}`, changes: { goals: { old: "", new: "Pass the B2 Spanish exam" } } }),
    ]);
    const [row] = await auditRows(server, "persona_proposal.dismissed");
    expect(JSON.stringify(row.details)).not.toContain("course plan");
    expect(await inboxCounts(db, ADMIN_CAN)).toMatchObject({ persona_proposals: 0 });

    // The activity list shows the dismissed suggestion with its reason.
    const page = await call(server.baseUrl, admin, "GET", "/persona-evolution?user_id=acct-goals");
    expect(page.text).toContain("Suggestion dismissed");
    expect(page.text).toContain(reason);
  });
});
