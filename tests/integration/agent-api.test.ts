// The agent-facing API against the real server: agents, workflow ingestion (single, duplicate,
// conflict, batch), outcome sources, class statistics, retrieval, runs by id, conversations,
// the OpenAPI document.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_KEY, startTestServer, type TestServer } from "../helpers/server";
import { anonymous, call, withKey } from "../helpers/http";
import { DEFAULT_LEARNING_CONFIG } from "@/lib/learning/agents/config";
import { workflowCreated, workflowDetail, classListResponse, agentResponse, workflowBatchResponse } from "@/lib/api/v1/schemas";

const VECTOR = "5e6b70e86ec21732b51dd93e2ddd9627b12c43186d3d048e7a8d356b41c37e12";
const admin = withKey(ADMIN_KEY);
let server: TestServer;
const api = (method: string, path: string, body?: unknown) => call(server.baseUrl, admin, method, path, body);
const count = async (sql: string, params: unknown[] = []) => (await server.sql.query(sql, params)).rows[0].n as number;

const refundSteps = (order = "A1") => [
  { tool: "lookup_order", arguments: { order_id: order }, result: { status: "paid" } },
  { tool: "issue_refund", arguments: { order_id: order, amount: 12.5 }, result: { accepted: true } },
];
const putAgent = (id: string, body: object = {}) => api("PUT", `/api/v1/agents/${id}`, { name: `Agent ${id}`, ...body });

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

describe(`agents (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("creates an agent with every learning default filled, audited, and reads it back", async () => {
    const tools = [{ name: "lookup_order", description: "Find an order", parameters: { type: "object", properties: { order_id: { type: "string" } } } }];
    const r = await putAgent("support", { tools, learning: { min_executions: 3, require_shadow: true, skill_injection_role: "developer" } });
    expect(r.status).toBe(200);
    expect(agentResponse.parse(r.json)).toBeTruthy();
    expect(r.json).toMatchObject({ agent_id: "support", name: "Agent support", tools, outcome_rule: null, run_count: 0, last_run_at: null });
    expect(r.json.learning).toEqual({ ...DEFAULT_LEARNING_CONFIG, min_executions: 3, require_shadow: true, skill_injection_role: "developer" });
    const g = await api("GET", "/api/v1/agents/support");
    expect(g.status).toBe(200);
    expect(g.json).toEqual(r.json);
    const audit = await server.sql.query("SELECT action, actor_type, details FROM audit_events WHERE target_type = 'agent' AND target_id = 'support'");
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0]).toMatchObject({ action: "agent.created", actor_type: "api_key" });
  });

  it("replaces an agent: config changes, counters stay, the replacement is audited", async () => {
    await putAgent("replaced");
    await api("POST", "/api/v1/agents/replaced/workflows", { query: "q", steps: refundSteps() });
    const r = await putAgent("replaced", { name: "Renamed", outcome_rule: { fail_when: [{ tool: "issue_refund", path: "accepted", equals: false }] } });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ name: "Renamed", run_count: 1, tools: [], outcome_rule: { fail_when: [{ tool: "issue_refund", path: "accepted", equals: false }] } });
    const cleared = await putAgent("replaced", { name: "Renamed" });
    expect(cleared.json.outcome_rule).toBeNull();
    const actions = await server.sql.query("SELECT action FROM audit_events WHERE target_id = 'replaced' ORDER BY id");
    expect(actions.rows.map((x) => x.action)).toEqual(["agent.created", "agent.replaced", "agent.replaced"]);
  });

  it("refuses developer authority without shadow review, and unknown agents", async () => {
    const r = await putAgent("dev", { learning: { skill_injection_role: "developer", require_shadow: false } });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe("validation_error");
    expect(r.json.errors).toContainEqual(expect.objectContaining({ path: "/learning/skill_injection_role" }));
    expect((await api("GET", "/api/v1/agents/dev")).status).toBe(404);
    expect((await api("GET", "/api/v1/agents/nobody")).json.code).toBe("not_found");
  });
});

describe("workflow ingestion", () => {
  beforeAll(async () => {
    await putAgent("ingest");
    await putAgent("ruled", { outcome_rule: { fail_when: [{ tool: "issue_refund", path: "accepted", equals: false }] } });
  });

  it("stores a run and answers with its identity", async () => {
    const r = await api("POST", "/api/v1/agents/ingest/workflows", {
      workflow_id: "run-1",
      user_id: "acct-42",
      thread_id: "t-1",
      query: "Refund order A1",
      steps: refundSteps(),
      skills_activated: ["sk_1"],
      answer: "Refunded.",
    });
    expect(r.status).toBe(201);
    expect(workflowCreated.parse(r.json)).toEqual({
      id: expect.any(String),
      workflow_id: "run-1",
      canonical_hash: VECTOR,
      step_count: 2,
      outcome: "success",
      outcome_source: "default",
      promoted_skill_id: null,
      duplicate: false,
    });
    const row = (await server.sql.query("SELECT * FROM workflows WHERE id = $1", [r.json.id])).rows[0];
    expect(row).toMatchObject({
      agent_id: "ingest",
      user_id: "acct-42",
      // A new agent pools its accounts (learning_scope "agent"): the run's class is agent-wide.
      user_scope: "",
      thread_id: "t-1",
      normalized_query: "refund order a1",
      canonical_version: 2,
      outcome: "SUCCESS",
      outcome_source: "DEFAULT",
      skills_activated: ["sk_1"],
      embedder_id: "hash-ngram-v2:512",
    });
    expect(row.embedding).toHaveLength(512);
    expect(row.body_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("answers a re-sent identical body as a duplicate and a different body as a conflict", async () => {
    const body = { workflow_id: "run-dup", query: "Refund order A9", steps: refundSteps("A9") };
    const first = await api("POST", "/api/v1/agents/ingest/workflows", body);
    expect(first.status).toBe(201);
    // Key order and absent-versus-null do not make a body different.
    const again = await api("POST", "/api/v1/agents/ingest/workflows", { steps: body.steps, query: body.query, workflow_id: "run-dup", user_id: null });
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ id: first.json.id, duplicate: true, canonical_hash: VECTOR });
    const other = await api("POST", "/api/v1/agents/ingest/workflows", { ...body, query: "Refund order B1" });
    expect(other.status).toBe(409);
    expect(other.json.code).toBe("conflict");
    expect(other.headers.get("content-type")).toContain("application/problem+json");
    expect(await count("SELECT count(*)::int AS n FROM workflows WHERE workflow_id = 'run-dup'")).toBe(1);
  });

  it("assigns a workflow_id when none is sent, and stores a run without steps without a class", async () => {
    const executions = "SELECT COALESCE(sum(executions), 0)::int AS n FROM trajectory_classes WHERE agent_id = 'ingest'";
    const before = await count(executions);
    const r = await api("POST", "/api/v1/agents/ingest/workflows", { query: "hello", steps: [] });
    expect(r.status).toBe(201);
    expect(r.json.workflow_id).toMatch(/^wf_/);
    expect(r.json).toMatchObject({ canonical_hash: null, step_count: 0 });
    expect(await count(executions)).toBe(before);
    expect(await count("SELECT count(*)::int AS n FROM workflows WHERE id = $1", [r.json.id])).toBe(1);
  });

  it("refuses runs for an unknown agent", async () => {
    const r = await api("POST", "/api/v1/agents/ghost/workflows", { query: "q", steps: [] });
    expect(r.status).toBe(404);
    expect(r.json.code).toBe("not_found");
    const b = await api("POST", "/api/v1/agents/ghost/workflows/batch", { workflows: [{ query: "q", steps: [] }] });
    expect(b.status).toBe(404);
    expect(await count("SELECT count(*)::int AS n FROM workflows WHERE agent_id = 'ghost'")).toBe(0);
  });

  it("decides outcomes in the v1.1 order: execution error, reported failure, failing rule, reported success, failed last step, default", async () => {
    const post = (agent: string, body: object) => api("POST", `/api/v1/agents/${agent}/workflows`, { query: "Refund", ...body });
    const declined = [{ tool: "issue_refund", arguments: { order_id: "A1" }, result: { accepted: false } }];
    const accepted = [{ tool: "issue_refund", arguments: { order_id: "A1" }, result: { accepted: true } }];
    expect((await post("ruled", { steps: accepted, execution_error: "crashed", outcome: "success" })).json).toMatchObject({ outcome: "failure", outcome_source: "execution" });
    expect((await post("ruled", { steps: accepted, outcome: "failure" })).json).toMatchObject({ outcome: "failure", outcome_source: "reported" });
    // A reported success does not override the admin's failing rule.
    expect((await post("ruled", { steps: declined, outcome: "SUCCESS" })).json).toMatchObject({ outcome: "failure", outcome_source: "rule" });
    expect((await post("ruled", { steps: accepted, outcome: "success" })).json).toMatchObject({ outcome: "success", outcome_source: "reported" });
    expect((await post("ruled", { steps: declined })).json).toMatchObject({ outcome: "failure", outcome_source: "rule" });
    expect((await post("ruled", { steps: accepted })).json).toMatchObject({ outcome: "success", outcome_source: "default" });
    expect((await post("ingest", { steps: declined })).json).toMatchObject({ outcome: "success", outcome_source: "default" });
    const cardDeclined = [{ tool: "issue_refund", arguments: { order_id: "A1" }, error: { type: "CardDeclined" } }];
    expect((await post("ingest", { steps: cardDeclined })).json).toMatchObject({ outcome: "failure", outcome_source: "step_error" });
    expect((await post("ingest", { steps: cardDeclined, outcome: "success" })).json).toMatchObject({ outcome: "success", outcome_source: "reported" });
  });

  it("judges runs by the rule stored at the time, right after the rule changes", async () => {
    const declined = [{ tool: "issue_refund", arguments: { order_id: "A1" }, result: { accepted: false } }];
    const post = () => api("POST", "/api/v1/agents/flip/workflows", { query: "Refund", steps: declined });
    await putAgent("flip");
    expect((await post()).json).toMatchObject({ outcome: "success", outcome_source: "default" });
    await putAgent("flip", { outcome_rule: { fail_when: [{ tool: "issue_refund", path: "accepted", equals: false }] } });
    expect((await post()).json).toMatchObject({ outcome: "failure", outcome_source: "rule" });
    await putAgent("flip", { outcome_rule: { fail_when: [{ tool: "issue_refund", path: "accepted", equals: "no" }] } });
    expect((await post()).json).toMatchObject({ outcome: "success", outcome_source: "default" });
    await putAgent("flip");
    expect((await post()).json).toMatchObject({ outcome: "success", outcome_source: "default" });
    expect(await count("SELECT COALESCE(sum(runs), 0)::int AS n FROM agent_run_counters WHERE agent_id = 'flip'")).toBe(4);
  });

  it("records learning_error when the rule cannot be evaluated, counts a failure, and still stores the run", async () => {
    const r = await api("POST", "/api/v1/agents/ruled/workflows", {
      workflow_id: "unjudgeable",
      query: "Refund",
      steps: [{ tool: "issue_refund", arguments: { order_id: "A1" }, result: "ok" }],
    });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ outcome: "failure", outcome_source: "rule" });
    const detail = await api("GET", `/api/v1/workflows/${r.json.id}`);
    expect(detail.json.learning_error).toMatch(/outcome_rule could not be evaluated/);
  });

  it("answers a batch with one result per item (207), each item on its own", async () => {
    await api("POST", "/api/v1/agents/ingest/workflows", { workflow_id: "b-existing", query: "x", steps: refundSteps() });
    const before = await count("SELECT count(*)::int AS n FROM workflows WHERE agent_id = 'ingest'");
    const r = await api("POST", "/api/v1/agents/ingest/workflows/batch", {
      workflows: [
        { workflow_id: "b-1", query: "Refund order A1", steps: refundSteps() },
        { workflow_id: "b-2", query: 42, steps: [] },
        { workflow_id: "b-existing", query: "x", steps: refundSteps() },
        { workflow_id: "b-existing", query: "changed", steps: refundSteps() },
        { workflow_id: "b-1", query: "Refund order A1", steps: refundSteps() },
        { workflow_id: "b-1", query: "something else", steps: [] },
        { query: "no id", steps: [{ tool: "lookup_order", arguments: {} }] },
      ],
    });
    expect(r.status).toBe(207);
    const results = workflowBatchResponse.parse(r.json).results;
    expect(results.map((x) => [x.index, x.status, x.duplicate ?? null])).toEqual([
      [0, 201, false],
      [1, 400, null],
      [2, 200, true],
      [3, 409, null],
      [4, 200, true],
      [5, 409, null],
      [6, 201, false],
    ]);
    expect(results[0]).toMatchObject({ canonical_hash: VECTOR, workflow_id: "b-1" });
    expect(results[4].id).toBe(results[0].id);
    expect(results[1].error).toMatchObject({ code: "validation_error", errors: [expect.objectContaining({ path: "/query" })] });
    expect(results[3].error?.code).toBe("conflict");
    expect(await count("SELECT count(*)::int AS n FROM workflows WHERE agent_id = 'ingest'")).toBe(before + 2);
  });

  it("keeps identical concurrent requests idempotent: one run stored, counted once", async () => {
    await putAgent("race");
    const body = { workflow_id: "same", query: "Refund order A1", steps: refundSteps() };
    const answers = await Promise.all(Array.from({ length: 6 }, () => api("POST", "/api/v1/agents/race/workflows", body)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.json.id)).size).toBe(1);
    const differing = await Promise.all(
      Array.from({ length: 4 }, (_, i) => api("POST", "/api/v1/agents/race/workflows", { ...body, workflow_id: "contested", query: `variant ${i}` })),
    );
    expect(differing.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
    expect(await count("SELECT COALESCE(sum(runs), 0)::int AS n FROM agent_run_counters WHERE agent_id = 'race'")).toBe(2);
    expect(await count("SELECT executions AS n FROM trajectory_classes WHERE agent_id = 'race'")).toBe(2);
  });
});

/** Every class of the agent as `user:hash`, read page by page with the cursor (each page full but the last). */
async function pageThrough(agentId: string, limit: number): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page: { json: { classes: { canonical_hash: string; user_id: string | null }[]; next_cursor: string | null } } = await api(
      "GET",
      `/api/v1/agents/${agentId}/classes?limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`,
    );
    if (page.json.next_cursor) expect(page.json.classes).toHaveLength(limit);
    seen.push(...page.json.classes.map((c) => `${c.user_id}:${c.canonical_hash}`));
    cursor = page.json.next_cursor;
  } while (cursor);
  return seen;
}

describe("trajectory class statistics", () => {
  const day = (d: number, h = 10) => `2026-11-${String(d).padStart(2, "0")}T${String(h).padStart(2, "0")}:00:00Z`;
  beforeAll(async () => {
    // Per-account classes (learning_scope "user"): each account's runs are counted apart.
    await putAgent("stats", { learning: { learning_scope: "user" } });
    const runs = [
      { workflow_id: "s1", query: "Refund order A1", steps: refundSteps(), created_at: day(10) },
      { workflow_id: "s2", query: "  refund   ORDER a1 ", steps: refundSteps("B2"), created_at: day(12), outcome: "failure" },
      { workflow_id: "s3", query: "Refund order B2", steps: refundSteps("B2"), created_at: day(12, 15) },
      { workflow_id: "s4", query: "", steps: refundSteps("C3"), created_at: day(11) },
      // The same path for a user: a separate class, never mixed with runs without a user.
      { workflow_id: "u1", user_id: "acct-1", query: "Refund order A1", steps: refundSteps(), created_at: day(13) },
      { workflow_id: "u2", user_id: "acct-1", query: "Refund order D4", steps: refundSteps(), created_at: day(14), execution_error: { type: "Crash" } },
      // Another path, and a run with no tool calls (no class).
      { workflow_id: "o1", query: "Where is my order?", steps: [{ tool: "lookup_order", arguments: { order_id: "A1" }, error: { type: "TimeoutError" } }], created_at: day(9) },
      { workflow_id: "n1", query: "hi", steps: [], created_at: day(15) },
    ];
    const r = await api("POST", "/api/v1/agents/stats/workflows/batch", { workflows: runs.slice(0, 5) });
    expect(r.json.results.every((x: { status: number }) => x.status === 201)).toBe(true);
    for (const run of runs.slice(5)) expect((await api("POST", "/api/v1/agents/stats/workflows", run)).status).toBe(201);
    // A duplicate changes nothing.
    expect((await api("POST", "/api/v1/agents/stats/workflows", runs[0])).status).toBe(200);
  });

  it("counts executions, successes, distinct normalized queries and first/last seen per user scope", async () => {
    const r = await api("GET", "/api/v1/agents/stats/classes");
    expect(r.status).toBe(200);
    const { classes, next_cursor } = classListResponse.parse(r.json);
    expect(next_cursor).toBeNull();
    expect(classes.map((c) => [c.user_id, c.executions])).toEqual([
      [null, 4],
      ["acct-1", 2],
      [null, 1],
    ]);
    expect(classes[0]).toMatchObject({
      canonical_hash: VECTOR,
      tools: ["lookup_order", "issue_refund"],
      executions: 4,
      successes: 3,
      success_rate: 0.75,
      distinct_queries: 2,
      first_seen: "2026-11-10T10:00:00.000Z",
      last_seen: "2026-11-12T15:00:00.000Z",
    });
    expect(classes[1]).toMatchObject({ canonical_hash: VECTOR, executions: 2, successes: 1, success_rate: 0.5, distinct_queries: 2, first_seen: "2026-11-13T10:00:00.000Z", last_seen: "2026-11-14T10:00:00.000Z" });
    // Its only step failed and nothing was reported: a failure (outcome_source step_error).
    expect(classes[2]).toMatchObject({ tools: ["lookup_order"], executions: 1, successes: 0, distinct_queries: 1 });
    expect(classes[2].canonical_hash).not.toBe(VECTOR);
    for (const c of classes) expect(c).toHaveProperty("gates");
  });

  it("keeps the distinct queries in a child table and daily counts for charts", async () => {
    const q = await server.sql.query(
      "SELECT normalized_query FROM trajectory_class_queries WHERE agent_id = 'stats' AND user_scope = '' AND canonical_hash = $1 ORDER BY 1",
      [VECTOR],
    );
    expect(q.rows.map((x) => x.normalized_query)).toEqual(["refund order a1", "refund order b2"]);
    const d = await server.sql.query(
      "SELECT to_char(day, 'YYYY-MM-DD') AS day, executions, successes FROM trajectory_class_days WHERE agent_id = 'stats' AND user_scope = '' AND canonical_hash = $1 ORDER BY day",
      [VECTOR],
    );
    expect(d.rows).toEqual([
      { day: "2026-11-10", executions: 1, successes: 1 },
      { day: "2026-11-11", executions: 1, successes: 1 },
      { day: "2026-11-12", executions: 2, successes: 1 },
    ]);
    const agent = await api("GET", "/api/v1/agents/stats");
    expect(agent.json).toMatchObject({ run_count: 8, last_run_at: "2026-11-15T10:00:00.000Z" });
  });

  it("filters by user and pages with an opaque cursor", async () => {
    const mine = await api("GET", "/api/v1/agents/stats/classes?user_id=acct-1");
    expect(mine.json.classes.map((c: { user_id: string }) => c.user_id)).toEqual(["acct-1"]);
    const seen = await pageThrough("stats", 1);
    expect(seen).toHaveLength(3);
    expect(new Set(seen).size).toBe(3);
    const bad = await api("GET", "/api/v1/agents/stats/classes?cursor=garbage");
    expect(bad.status).toBe(400);
  });

  it("pages through classes tied on executions, and one hash in several scopes, without gaps or repeats", async () => {
    await putAgent("ties", { learning: { learning_scope: "user" } });
    const users = [undefined, "u-a", "u-b"];
    const runs = ["t_alpha", "t_beta", "t_gamma", "t_delta"].flatMap((tool, i) =>
      users.map((user_id, j) => ({ workflow_id: `tie-${i}-${j}`, user_id, query: `do ${tool}`, steps: [{ tool, arguments: { n: i } }] })),
    );
    const r = await api("POST", "/api/v1/agents/ties/workflows/batch", { workflows: runs });
    expect(r.json.results.every((x: { status: number }) => x.status === 201)).toBe(true);
    const whole = await pageThrough("ties", 100);
    expect(whole).toHaveLength(12);
    expect(await pageThrough("ties", 5)).toEqual(whole);
    const hashes = whole.map((k: string) => k.split(":")[1]);
    expect(hashes).toEqual([...hashes].sort());
    const empty = await api("GET", "/api/v1/agents/ties/classes?user_id=nobody");
    expect(empty.json).toEqual({ classes: [], next_cursor: null });
    expect((await api("GET", "/api/v1/agents/missing-agent/classes")).status).toBe(404);
  });
});

describe("retrieval and reads", () => {
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    await putAgent("search");
    const runs = [
      { workflow_id: "refund", query: "Refund order A1", steps: refundSteps() },
      { workflow_id: "track", query: "Track my package", steps: [{ tool: "track_parcel", arguments: { id: "1" } }] },
      { workflow_id: "reset", query: "Reset my password", steps: [{ tool: "reset_password", arguments: { email: "x" } }] },
      { workflow_id: "refund-user", user_id: "acct-7", query: "I want a refund for order 77", steps: refundSteps() },
    ];
    for (const run of runs) ids[run.workflow_id] = (await api("POST", "/api/v1/agents/search/workflows", run)).json.id;
  });

  it("returns the runs most similar to a query, best first", async () => {
    const r = await api("GET", `/api/v1/agents/search/workflows?query=${encodeURIComponent("please refund my order B7")}&limit=2`);
    expect(r.status).toBe(200);
    // Both refund requests read "refund order" once their ids are ignored: equally similar, newest first.
    expect(r.json.workflows.map((w: { workflow_id: string }) => w.workflow_id)).toEqual(["refund-user", "refund"]);
    expect(r.json.workflows[1].similarity).toBeGreaterThan(0.9);
    expect(r.json.workflows[1].similarity).toBe(r.json.workflows[0].similarity);
    expect(workflowDetail.parse(r.json.workflows[1]).steps).toEqual(refundSteps());
  });

  it("ranks only the given user's runs when user_id is given", async () => {
    const r = await api("GET", `/api/v1/agents/search/workflows?query=refund&user_id=acct-7`);
    expect(r.json.workflows.map((w: { workflow_id: string }) => w.workflow_id)).toEqual(["refund-user"]);
  });

  it("leaves out runs stamped as covered by an ACTIVE skill unless exclude_promoted=false", async () => {
    await server.sql.query("UPDATE workflows SET promoted_skill_id = 'sk_live' WHERE id = $1", [ids.refund]);
    const q = `/api/v1/agents/search/workflows?query=${encodeURIComponent("Refund order A1")}&limit=5`;
    const hidden = await api("GET", q);
    expect(hidden.json.workflows.map((w: { workflow_id: string }) => w.workflow_id)).not.toContain("refund");
    // Candidates share one of the query vector's largest coordinates: unrelated runs are not ranked.
    expect(hidden.json.workflows.map((w: { workflow_id: string }) => w.workflow_id)).toContain("refund-user");
    expect(hidden.json.workflows.every((w: { similarity: number }) => w.similarity > 0)).toBe(true);
    const all = await api("GET", `${q}&exclude_promoted=false`);
    expect(all.json.workflows.slice(0, 2).find((w: { workflow_id: string }) => w.workflow_id === "refund")).toMatchObject({ promoted_skill_id: "sk_live" });
    expect((await api("GET", `${q}&exclude_promoted=maybe`)).status).toBe(400);
    expect((await api("GET", "/api/v1/agents/search/workflows")).status).toBe(400);
    expect((await api("GET", "/api/v1/agents/nobody/workflows?query=x")).status).toBe(404);
  });

  it("returns one full run by the id returned at creation", async () => {
    const r = await api("GET", `/api/v1/workflows/${ids["refund-user"]}`);
    expect(r.status).toBe(200);
    const w = workflowDetail.parse(r.json);
    expect(w).toMatchObject({
      id: ids["refund-user"],
      agent_id: "search",
      workflow_id: "refund-user",
      user_id: "acct-7",
      query: "I want a refund for order 77",
      steps: refundSteps(),
      canonical_hash: VECTOR,
      canonical_version: 2,
      canonical_signature: [
        { tool: "lookup_order", arg_keys: ["order_id"], errored: false, retry_count: 1 },
        { tool: "issue_refund", arg_keys: ["amount", "order_id"], errored: false, retry_count: 1 },
      ],
      skills_activated: [],
      shadow_evaluations: [],
      promoted_skill_id: null,
    });
    expect((await api("GET", "/api/v1/workflows/cnope")).status).toBe(404);
  });
});

describe("conversations", () => {
  it("stores messages once, by message_id or a derived id", async () => {
    await putAgent("chat");
    const body = {
      thread_id: "t-1",
      user_id: "acct-1",
      messages: [
        { message_id: "m-1", role: "user", text: "Hi, refund please", timestamp: "2026-11-30T10:00:00Z" },
        { role: "assistant", text: "Done.", timestamp: "2026-11-30T10:00:05Z" },
      ],
    };
    const first = await api("POST", "/api/v1/agents/chat/conversations", body);
    expect(first.status).toBe(201);
    expect(first.json).toEqual({ stored: 2, duplicates: 0 });
    const again = await api("POST", "/api/v1/agents/chat/conversations", {
      ...body,
      messages: [...body.messages, { role: "user", text: "Thanks", timestamp: "2026-11-30T10:01:00Z" }],
    });
    expect(again.json).toEqual({ stored: 1, duplicates: 2 });
    const rows = await server.sql.query("SELECT message_id, role, user_id FROM conversation_messages WHERE agent_id = 'chat' ORDER BY timestamp");
    expect(rows.rows.map((x) => x.role)).toEqual(["user", "assistant", "user"]);
    expect(rows.rows[0].message_id).toBe("m-1");
    expect(rows.rows[1].message_id).toMatch(/^m_[0-9a-f]{32}$/);
    expect((await api("POST", "/api/v1/agents/ghost/conversations", body)).status).toBe(404);
  });
});

describe("OpenAPI", () => {
  it("serves a document of every agent route without auth", async () => {
    const r = await call(server.baseUrl, anonymous, "GET", "/api/v1/openapi.json");
    expect(r.status).toBe(200);
    expect(r.json.openapi).toBe("3.1.0");
    const ops = Object.entries(r.json.paths as Record<string, Record<string, unknown>>).flatMap(([p, m]) => Object.keys(m).map((k) => `${k.toUpperCase()} ${p}`));
    for (const op of [
      "GET /api/health",
      "PUT /api/v1/agents/{agent_id}",
      "GET /api/v1/agents/{agent_id}",
      "POST /api/v1/agents/{agent_id}/workflows",
      "GET /api/v1/agents/{agent_id}/workflows",
      "POST /api/v1/agents/{agent_id}/workflows/batch",
      "GET /api/v1/workflows/{id}",
      "GET /api/v1/agents/{agent_id}/classes",
      "POST /api/v1/agents/{agent_id}/conversations",
    ]) expect(ops).toContain(op);
    const post = r.json.paths["/api/v1/agents/{agent_id}/workflows"].post;
    expect(post.requestBody.content["application/json"].schema.required).toEqual(["query", "steps"]);
    expect(post.responses["201"].content["application/json"].schema.properties).toHaveProperty("canonical_hash");
    expect(post.responses["409"]).toBeTruthy();
    const classes = r.json.paths["/api/v1/agents/{agent_id}/classes"].get;
    expect(classes.parameters.map((p: { name: string }) => p.name)).toEqual(["agent_id", "limit", "cursor", "user_id"]);
    type Documented = { responses: Record<string, { content?: Record<string, { schema?: object }> }> };
    for (const [p, methods] of Object.entries(r.json.paths as Record<string, Record<string, Documented>>)) {
      for (const [m, op] of Object.entries(methods)) {
        const success = Object.entries(op.responses).filter(([status]) => status.startsWith("2"));
        expect(success.length, `${m} ${p}`).toBeGreaterThan(0);
        // JSON, a JSON-lines stream's line (the runs export), a zip (the skills export) or OTLP's protobuf.
        for (const [status, res] of success) expect(Object.values(res.content ?? {})[0]?.schema, `${m} ${p} ${status}`).toBeTypeOf("object");
      }
    }
  });
});
