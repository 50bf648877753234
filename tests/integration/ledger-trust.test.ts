// The ledger's trust boundary (README "API keys") over
// HTTP on the real server: proposing and evaluating are separate key scopes that one key never
// holds together; an evaluator key records only as its evaluator_id; a key bound to a tenant and
// agents reaches nothing else (403 for requests naming others, not-found for other agents' runs
// and skills); run:/trace: evidence must name a stored run of the scope's agent (422 otherwise),
// and the procedure page links it. Every refusal writes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";
import { call, login, type Caller, type Json } from "../helpers/http";
import { callAction } from "../helpers/actions";
import { agentBoundKey, createKey, evaluatorKey, ingestKey, proposerKey, type TestKey } from "../helpers/keys";
import { fixtureEvaluation, fixtureProposal, ledgerClient, type Scope } from "../helpers/ledger";
import { cycle, postRuns, putAgent } from "../helpers/learning";

let server: TestServer;
let admin: Caller;
let proposer: TestKey;
let evaluator: TestKey;
const runIds: Record<string, string> = {};
const scope = (over: Partial<Scope> = {}): Scope => ({ tenant: "tenant-a", agent: "support-a", environment: "trust", ...over });

const enc = encodeURIComponent;
const scopeQuery = (s: Scope) => `tenant=${enc(s.tenant)}&agent=${enc(s.agent)}&environment=${enc(s.environment)}`;
const counts = async () =>
  (
    await server.sql.query(
      `SELECT (SELECT count(*) FROM ledger_procedures)::int AS procedures, (SELECT count(*) FROM ledger_evaluations)::int AS evaluations,
              (SELECT count(*) FROM workflows)::int AS runs, (SELECT count(*) FROM api_keys)::int AS keys, (SELECT count(*) FROM audit_events)::int AS audit`,
    )
  ).rows[0];

/** Expects a problem+json refusal with `status` and `code` that wrote no row anywhere we count. */
async function refused(request: () => Promise<{ status: number; json: Json; headers: Headers; text: string }>, status: number, code: string) {
  const before = await counts();
  const r = await request();
  expect(r.status, r.text.slice(0, 300)).toBe(status);
  expect(r.headers.get("content-type")).toContain("application/problem+json");
  expect(r.json.code).toBe(code);
  expect(await counts()).toEqual(before);
  return r.json;
}

beforeAll(async () => {
  server = await startTestServer();
  admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  for (const agent of ["support-a", "support-b"]) {
    await putAgent(server, agent);
    const run = { query: "Refund order A1", user_id: `acct-${agent}`, thread_id: `thread-${agent}`, steps: [{ tool: "lookup_order", arguments: { order_id: "A1" }, result: { status: "paid" } }] };
    const r = await call(server.baseUrl, (await createKey(server, admin, { scopes: ["ingest"] })).caller, "POST", `/api/v1/agents/${agent}/workflows`, {
      ...run,
      workflow_id: `wf-${agent}`,
      root_trace_id: `tr-${agent}`,
    });
    expect(r.status, r.text).toBe(201);
    runIds[agent] = r.json.id;
  }
  proposer = await proposerKey(server, admin);
  evaluator = await evaluatorKey(server, admin, "test-harness");
});
afterAll(async () => {
  await server?.stop();
});

describe(`ledger trust boundary (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("refuses a key holding both ledger scopes, an evaluator key without its evaluator and an evaluator id on another key, writing nothing", async () => {
    const before = await counts();
    for (const input of [
      { name: "both", scopes: ["ledger:propose", "ledger:evaluate"], evaluator_id: "test-harness" },
      { name: "both via ingest", scopes: ["ingest", "ledger:propose", "ledger:evaluate"], evaluator_id: "e" },
      { name: "unbound evaluator", scopes: ["ledger:evaluate"] },
      { name: "evaluator id on a proposer", scopes: ["ledger:propose"], evaluator_id: "test-harness" },
    ]) {
      const r = await callAction(server, admin, "lib/actions/api-keys.ts#createApiKey", input);
      expect(r.kind, input.name).toBe("validation_error");
      expect(JSON.stringify(r.error?.fields), input.name).toMatch(/cannot both propose and evaluate|must be bound to an evaluator id|Only a ledger:evaluate key/);
    }
    expect(await counts()).toEqual(before);
  });

  it("takes the write capability from the key, not the body: ingest keys neither propose nor evaluate, the proposer cannot evaluate, the evaluator cannot propose", async () => {
    const s = scope({ environment: "scopes" });
    const ingest = await ingestKey(server, admin);
    const asIngest = ledgerClient(server.baseUrl, ingest.caller);
    expect((await refused(() => asIngest.propose(s, fixtureProposal()), 403, "forbidden")).detail).toContain("'ledger:propose'");
    const asEvaluator = ledgerClient(server.baseUrl, evaluator.caller);
    await refused(() => asEvaluator.propose(s, fixtureProposal()), 403, "forbidden");

    const ledger = ledgerClient(server.baseUrl, proposer.caller, evaluator.caller);
    expect((await ledger.propose(s, fixtureProposal())).status).toBe(201);
    const asProposer = ledgerClient(server.baseUrl, proposer.caller);
    expect((await refused(() => asProposer.record(s, "procedure-1", fixtureEvaluation(0)), 403, "forbidden")).detail).toContain("'ledger:evaluate'");
    await refused(() => asIngest.record(s, "procedure-1", fixtureEvaluation(0)), 403, "forbidden");
    expect((await ledger.record(s, "procedure-1", fixtureEvaluation(0))).status).toBe(201);
    // Both read what they work on.
    expect((await asProposer.get(s, "procedure-1")).json.qualification_count).toBe(1);
    expect((await asEvaluator.evaluation(s, "procedure-1", "case-0")).status).toBe(200);
  });

  it("an evaluator key records only as its evaluator_id, even when the proposal names the other evaluator", async () => {
    const s = scope({ environment: "evaluator" });
    expect((await ledgerClient(server.baseUrl, proposer.caller).propose(s, fixtureProposal({}, { evaluator_id: "other-harness" }))).status).toBe(201);
    const asTestHarness = ledgerClient(server.baseUrl, proposer.caller, evaluator.caller);
    const r = await refused(() => asTestHarness.record(s, "procedure-1", fixtureEvaluation(0, "qualification", { evaluator_id: "other-harness" })), 403, "forbidden");
    expect(r.detail).toContain("evaluator it is bound to");
    const other = await evaluatorKey(server, admin, "other-harness");
    const asOther = ledgerClient(server.baseUrl, proposer.caller, other.caller);
    expect((await asOther.record(s, "procedure-1", fixtureEvaluation(0, "qualification", { evaluator_id: "other-harness" }))).status).toBe(201);
  });

  it("a key bound to a tenant and agents is refused any other in bodies, paths and queries", async () => {
    const boundProposer = await proposerKey(server, admin, { tenant: "tenant-a", agents: ["support-a"] });
    const boundEvaluator = await evaluatorKey(server, admin, "test-harness", { tenant: "tenant-a", agents: ["support-a"] });
    const ledger = ledgerClient(server.baseUrl, boundProposer.caller, boundEvaluator.caller);
    const mine = scope({ environment: "bound" });
    for (const other of [scope({ environment: "bound", tenant: "tenant-b" }), scope({ environment: "bound", agent: "support-b" })]) {
      await refused(() => ledger.propose(other, fixtureProposal()), 403, "forbidden");
      await refused(() => ledger.get(other, "procedure-1"), 403, "forbidden");
      await refused(() => ledger.select(other), 403, "forbidden");
      await refused(() => ledger.record(other, "procedure-1", fixtureEvaluation(0)), 403, "forbidden");
      await refused(() => ledger.evaluation(other, "procedure-1", "case-0"), 403, "forbidden");
    }
    expect((await ledger.propose(mine, fixtureProposal())).status).toBe(201);
    expect((await ledger.record(mine, "procedure-1", fixtureEvaluation(0))).status).toBe(201);
    expect((await ledger.select(mine)).status).toBe(200);
    // An unbound proposer still reaches every tenant (keys from before the bindings keep working).
    expect((await ledgerClient(server.baseUrl, proposer.caller).propose(scope({ environment: "bound", tenant: "tenant-b" }), fixtureProposal())).status).toBe(201);
  });

  it("an agent-bound key reaches only its agents: paths naming others are refused, other agents' runs and skills are not found", async () => {
    await postRuns(server, "support-b", 5);
    const skillOfB = (await cycle(server, "support-b")).promoted[0] as string;
    expect(skillOfB).toBeTruthy();
    const key = (await agentBoundKey(server, admin, ["support-a"])).caller;
    const get = (path: string) => call(server.baseUrl, key, "GET", path);
    const post = (path: string, body?: unknown) => call(server.baseUrl, key, "POST", path, body);

    expect((await get("/api/v1/agents/support-a")).status).toBe(200);
    expect((await get(`/api/v1/workflows/${runIds["support-a"]}`)).status).toBe(200);
    for (const path of ["/api/v1/agents/support-b", "/api/v1/agents/support-b/classes", "/api/v1/agents/support-b/skills", "/api/v1/agents/support-b/workflows?query=refund", "/api/v1/agents/support-b/promotion-cycles", "/api/v1/accounts/acct-support-b/persona?agent_id=support-b"]) {
      await refused(() => get(path), 403, "forbidden");
    }
    const run = { workflow_id: "bound-run", query: "Refund order A1", steps: [{ tool: "lookup_order", arguments: { order_id: "A1" } }] };
    await refused(() => post("/api/v1/agents/support-b/workflows", run), 403, "forbidden");
    await refused(() => post("/api/v1/agents/support-b/workflows/batch", { workflows: [run] }), 403, "forbidden");
    await refused(() => post("/api/v1/agents/support-b/context", { query: "Refund order A1" }), 403, "forbidden");
    await refused(() => post("/api/v1/agents/support-b/promotion-cycles"), 403, "forbidden");
    await refused(() => call(server.baseUrl, key, "PUT", "/api/v1/agents/support-b", { name: "taken over" }), 403, "forbidden");
    await refused(() => post("/api/v1/agents/support-b/conversations", { thread_id: "t", user_id: "u", messages: [{ role: "user", text: "hi", timestamp: "2026-11-30T10:00:00Z" }] }), 403, "forbidden");

    await refused(() => get(`/api/v1/workflows/${runIds["support-b"]}`), 404, "not_found");
    for (const path of [`/api/v1/skills/${skillOfB}`, `/api/v1/skills/${skillOfB}/readiness`]) await refused(() => get(path), 404, "not_found");
    await refused(() => post(`/api/v1/skills/${skillOfB}/activate`), 404, "not_found");
    await refused(() => post(`/api/v1/skills/${skillOfB}/demote`, { reason: "not mine" }), 404, "not_found");
    await refused(() => post(`/api/v1/skills/${skillOfB}/qualification`, { model: "gpt-4o-2024-08-06", reason: "not mine" }), 404, "not_found");
    // The answer is the one a missing skill gets: nothing tells that it exists.
    const missing = await get("/api/v1/skills/no-such-skill");
    expect((await get(`/api/v1/skills/${skillOfB}`)).json.detail).toBe(missing.json.detail.replace("no-such-skill", skillOfB));
  });

  it("run: and trace: evidence must name a stored run of the scope's agent (422 otherwise); the procedure page links it", async () => {
    const s = scope({ environment: "evidence" });
    const ledger = ledgerClient(server.baseUrl, proposer.caller, evaluator.caller);
    expect((await ledger.propose(s, fixtureProposal({}, { qualification_trials: 100 }))).status).toBe(201);
    for (const ref of ["run:wf-unknown", "trace:tr-unknown", "run:wf-support-b", "trace:tr-support-b", "run:", "trace:"]) {
      const body = await refused(() => ledger.record(s, "procedure-1", fixtureEvaluation(ref, "qualification", { evidence_ref: ref })), 422, "unresolved_reference");
      expect(body.errors).toEqual([{ path: "/evidence_ref", message: expect.any(String) }]);
    }
    expect((await ledger.record(s, "procedure-1", fixtureEvaluation(1, "qualification", { evidence_ref: "run:wf-support-a" }))).status).toBe(201);
    expect((await ledger.record(s, "procedure-1", fixtureEvaluation(2, "qualification", { evidence_ref: "trace:tr-support-a" }))).status).toBe(201);
    // Evidence of other forms is the evaluator's own reference and is not resolved.
    expect((await ledger.record(s, "procedure-1", fixtureEvaluation(3))).status).toBe(201);

    const page = await call(server.baseUrl, admin, "GET", `/ledger/procedure?${scopeQuery(s)}&id=procedure-1`);
    expect(page.status).toBe(200);
    const html = page.text.replace(/&amp;/g, "&");
    expect(html).toContain(`href="/workflows/runs/${runIds["support-a"]}"`);
    expect(html).toContain(`href="/traces?agent=support-a&user_id=acct-support-a&thread_id=thread-support-a&root_trace_id=tr-support-a#trace-timeline"`);
  });
});
