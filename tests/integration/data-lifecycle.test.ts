// Data lifecycle (README "Deleting an agent and exporting data"): exports and deleting an agent. Runs on both engines: the deletion's
// batches and row locks, the ingestion guard and the keyset-paged export are engine SQL.
// The server runs no worker (shared server 2), so the deletion stays "under way" until this file
// starts one, with a small batch size so that every table takes several batches.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import { ADMIN_EMAIL, ADMIN_KEY, ADMIN_PASSWORD, startTestServer, waitFor, type TestServer } from "../helpers/server";
import { call, login, withKey, type Caller } from "../helpers/http";
import type { AuditEvent } from "@/lib/audit/events";
import { callAction } from "../helpers/actions";
import { adminKey, ingestKey, proposerKey } from "../helpers/keys";
import { fixtureProposal } from "../helpers/ledger";
import { startWorker } from "../helpers/worker";

const key = withKey(ADMIN_KEY);
const DOOMED = "doomed";
const LEDGER_TOO = "doomed-ledger";
const KEPT = "kept";
const RUNS = 520; // more than one export batch (500), with a created_at tie across the boundary
// Yesterday at midnight UTC: recent enough for the recency gate (30 days) whenever the suite runs.
const BASE = (Math.floor(Date.now() / 86_400_000) - 1) * 86_400_000;
const at = (i: number) => new Date(BASE + Math.floor((i + 1) / 2) * 60_000).toISOString();
const user = (i: number) => (i % 3 === 0 ? undefined : `u${i % 3}`);
const fails = (i: number) => i % 5 === 0;
const steps = (i: number) =>
  i % 2
    ? [{ tool: "lookup_order", arguments: { order_id: `A${i}` }, result: { status: "paid" } }]
    : [
        { tool: "lookup_order", arguments: { order_id: `A${i}` }, result: { status: "paid" } },
        { tool: "issue_refund", arguments: { order_id: `A${i}` }, result: { accepted: !fails(i) } },
      ];
const run = (prefix: string, i: number) => ({
  workflow_id: `${prefix}-${i}`,
  ...(user(i) ? { user_id: user(i) } : {}),
  query: `Refund order A${i}`,
  steps: steps(i),
  outcome: fails(i) ? "failure" : "success",
  created_at: at(i),
});
const tools = [
  { name: "lookup_order", description: "Find an order" },
  { name: "issue_refund", description: "Refund an order" },
];

let server: TestServer;
let admin: Caller;

async function seedAgent(id: string, runs: number, learning: Record<string, unknown> = {}) {
  // Per-account classes: the runs of two accounts and of none each make classes to distill.
  const put = await call(server.baseUrl, key, "PUT", `/api/v1/agents/${id}`, { name: id, tools, learning: { learning_scope: "user", ...learning } });
  expect(put.status, put.text).toBe(200);
  for (let from = 0; from < runs; from += 600) {
    const workflows = Array.from({ length: Math.min(600, runs - from) }, (_, k) => run(id, from + k));
    const r = await call(server.baseUrl, key, "POST", `/api/v1/agents/${id}/workflows/batch`, { workflows });
    expect(r.status, r.text).toBe(207);
  }
  const c = await call(server.baseUrl, key, "POST", `/api/v1/agents/${id}/conversations`, {
    thread_id: "t1",
    user_id: "u1",
    messages: [{ role: "user", text: "Where is my refund?", timestamp: at(0) }],
  });
  expect(c.status, c.text).toBe(201);
}

/** Rows of the agent in every table that names one (agent_id), and its ledger procedures. */
async function rowsOf(agentId: string): Promise<Record<string, number>> {
  const tables = await server.sql.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema() AND column_name = 'agent_id' ORDER BY 1",
  );
  const counts: Record<string, number> = {};
  for (const { table_name } of tables.rows) {
    counts[table_name] = (await server.sql.query(`SELECT count(*)::int AS n FROM ${table_name} WHERE agent_id = $1`, [agentId])).rows[0].n;
  }
  counts.agents = (await server.sql.query("SELECT count(*)::int AS n FROM agents WHERE id = $1", [agentId])).rows[0].n;
  counts.ledger_procedures = (await server.sql.query("SELECT count(*)::int AS n FROM ledger_procedures WHERE agent = $1", [agentId])).rows[0].n;
  return counts;
}

const lines = (text: string) => text.split("\n").filter(Boolean).map((l) => JSON.parse(l));

beforeAll(async () => {
  server = await startTestServer({ env: { PROCTOR_WORKER: "0" } });
  admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  await seedAgent(DOOMED, RUNS);
  await seedAgent(LEDGER_TOO, 10);
  // Without cadence cycles: the worker started below must leave the kept agent as it is.
  await seedAgent(KEPT, 20, { promotion_every_n_runs: 0 });
  // Skills, their events and a promotion report for the deletion to remove.
  const cycle = await call(server.baseUrl, key, "POST", `/api/v1/agents/${DOOMED}/promotion-cycles`);
  expect(cycle.status, cycle.text).toBe(200);
  expect(cycle.json.promoted.length, cycle.text).toBeGreaterThan(0);
  const proposer = await proposerKey(server, admin);
  for (const agent of [DOOMED, LEDGER_TOO, KEPT]) {
    const p = await call(server.baseUrl, proposer.caller, "POST", "/api/v1/ledger/procedures", { scope: { tenant: "t", agent, environment: "e" }, ...fixtureProposal() });
    expect(p.status, p.text).toBe(201);
  }
}, 240_000); // the shared server's first start (PGlite, a loaded machine) plus the seeding

afterAll(async () => {
  await server?.stop();
});

describe("workflow export", () => {
  const exportOf = (query = "", caller = key) => call(server.baseUrl, caller, "GET", `/api/v1/agents/${DOOMED}/workflows/export${query}`);

  it("streams every run once as JSON lines, oldest first, across batches", async () => {
    const r = await exportOf();
    expect(r.status, r.text.slice(0, 500)).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/x-ndjson");
    const runs = lines(r.text);
    expect(runs).toHaveLength(RUNS);
    expect(new Set(runs.map((w) => w.workflow_id)).size).toBe(RUNS);
    const order = runs.map((w) => `${w.created_at}|${w.id}`);
    expect(order).toEqual([...order].sort());
    expect(runs[0]).toMatchObject({ agent_id: DOOMED, query: "Refund order A0", steps: steps(0) });
    // Byte for byte what GET /api/v1/workflows/{id} answers, on both sides of the batch boundary.
    const raw = r.text.split("\n");
    for (const i of [0, 499, 500, RUNS - 1]) {
      expect(raw[i]).toBe((await call(server.baseUrl, key, "GET", `/api/v1/workflows/${runs[i].id}`)).text);
    }
  });

  it("filters by time range, class, user and outcome", async () => {
    const all = lines((await exportOf()).text);
    const refundClass = all.find((w) => w.step_count === 2).canonical_hash;
    const [from, to] = [at(100), at(300)];
    const expected = all.filter((w) => w.created_at >= from && w.created_at < to && w.canonical_hash === refundClass && w.user_id === "u1" && w.outcome === "failure");
    expect(expected.length).toBeGreaterThan(0);
    const q = new URLSearchParams({ from, to, canonical_hash: refundClass, user_id: "u1", outcome: "failure" });
    const got = lines((await exportOf(`?${q}`)).text);
    expect(got.map((w) => w.id)).toEqual(expected.map((w) => w.id));
    expect(lines((await exportOf(`?outcome=failure`)).text)).toHaveLength(all.filter((w) => w.outcome === "failure").length);
  });

  it("needs the export scope and valid filters", async () => {
    const ingest = await ingestKey(server, admin);
    expect((await exportOf("", ingest.caller)).status).toBe(403);
    expect((await exportOf("?outcome=maybe")).status).toBe(400);
    expect((await call(server.baseUrl, key, "GET", "/api/v1/agents/nobody/workflows/export")).status).toBe(404);
  });
});

describe("audit export", () => {
  it("writes commas, quotes and line breaks as CSV cells that read back exactly, and the same rows as JSON lines", async () => {
    const name = 'ops, "night"\nshift';
    const odd = await adminKey(server, admin, { name });
    const put = await call(server.baseUrl, odd.caller, "PUT", "/api/v1/agents/csv-agent", { name: "=1+1", tools: [] });
    expect(put.status, put.text).toBe(200);
    const query = "action=agent.created&target=csv-agent";
    const csv = await fetch(`${server.baseUrl}/api/console/audit/export?${query}&format=csv`, { headers: admin.headers });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    const text = await csv.text();
    expect(text).toContain('"ops, ""night""\nshift (');
    const [header, ...records] = parse(text) as string[][];
    expect(records).toHaveLength(1);
    const row = Object.fromEntries(header.map((h, i) => [h, records[0][i]]));
    expect(row).toMatchObject({ action: "agent.created", target_id: "csv-agent", actor_type: "api_key" });
    expect(row.actor_label.startsWith(`${name} (`)).toBe(true);
    expect(JSON.parse(row.details)).toMatchObject({ name: "=1+1", tools: [] });

    const jsonl = await fetch(`${server.baseUrl}/api/console/audit/export?${query}&format=jsonl`, { headers: admin.headers });
    expect(jsonl.headers.get("content-type")).toBe("application/x-ndjson");
    const events = lines(await jsonl.text());
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ id: row.id, actor_label: row.actor_label, details: { name: "=1+1" } });
  });
});

describe("deleting an agent", () => {
  it("hides it and refuses its writes at once, deletes it in batches through the worker, keeps other agents, then answers 404", async () => {
    const kept = await rowsOf(KEPT);

    // The console asks for the agent's id typed again.
    const mistyped = await callAction(server, admin, "lib/actions/learning.ts#deleteAgent", { agent_id: LEDGER_TOO, confirm_agent_id: "doomed-ledgr", reason: "cleanup" });
    expect(mistyped.kind).toBe("validation_error");
    expect((await rowsOf(LEDGER_TOO)).agents).toBe(1);
    const viaConsole = await callAction(server, admin, "lib/actions/learning.ts#deleteAgent", {
      agent_id: LEDGER_TOO,
      confirm_agent_id: LEDGER_TOO,
      reason: "cleanup",
      include_ledger: true,
    });
    expect(viaConsole.kind, viaConsole.text).toBe("ok");

    const first = await call(server.baseUrl, key, "DELETE", `/api/v1/agents/${DOOMED}`, { reason: "retired bot" });
    expect(first.status, first.text).toBe(202);
    expect(first.json).toMatchObject({ agent_id: DOOMED, status: "deleting", include_ledger: false });
    const again = await call(server.baseUrl, key, "DELETE", `/api/v1/agents/${DOOMED}?include_ledger=true`);
    expect(again.status, again.text).toBe(200);
    expect(again.json).toEqual(first.json);
    const before = await rowsOf(DOOMED);
    expect(before.workflows).toBe(RUNS);

    // Hidden from the list and the switcher; every write refused with agent_deleting.
    const list = await (await fetch(`${server.baseUrl}/agents`, { headers: admin.headers })).text();
    expect(list).toContain(`/agents/${KEPT}`);
    expect(list).not.toContain(`/agents/${DOOMED}`);
    const skill = (await server.sql.query("SELECT id FROM skills WHERE agent_id = $1 AND status IN ('SHADOW', 'CANDIDATE') LIMIT 1", [DOOMED])).rows[0].id;
    const writes = [
      call(server.baseUrl, key, "POST", `/api/v1/agents/${DOOMED}/workflows`, run("late", 1)),
      call(server.baseUrl, key, "POST", `/api/v1/agents/${DOOMED}/workflows/batch`, { workflows: [run("late", 2)] }),
      call(server.baseUrl, key, "POST", `/api/v1/agents/${DOOMED}/conversations`, { thread_id: "t2", user_id: "u1", messages: [{ role: "user", text: "hi", timestamp: at(1) }] }),
      call(server.baseUrl, key, "POST", `/api/v1/agents/${DOOMED}/context`, { query: "Refund order A1" }),
      call(server.baseUrl, key, "PUT", `/api/v1/agents/${DOOMED}`, { name: "revived", tools }),
      call(server.baseUrl, key, "POST", `/api/v1/agents/${DOOMED}/promotion-cycles`),
      call(server.baseUrl, key, "GET", `/api/v1/agents/${DOOMED}/workflows/export`),
      call(server.baseUrl, key, "POST", `/api/v1/skills/${skill}/activate`, {}),
    ];
    for (const r of await Promise.all(writes)) {
      expect(r.status, r.text).toBe(409);
      expect(r.json.code).toBe("agent_deleting");
    }
    const cycle = await callAction(server, admin, "lib/actions/learning.ts#runPromotionCycle", { agent_id: DOOMED });
    expect(cycle.kind).toBe("agent_deleting");
    expect(await rowsOf(DOOMED)).toEqual(before);

    const worker = startWorker(server, { PROCTOR_AGENT_DELETE_BATCH: "40" });
    try {
      await waitFor(async () => (await rowsOf(DOOMED)).agents + (await rowsOf(LEDGER_TOO)).agents === 0, 90_000, worker.output);
    } finally {
      await worker.stop();
    }

    const after = await rowsOf(DOOMED);
    // Only its deletion job is left (done), its ledger procedure (not asked for) and its tombstone
    // (kept so OTLP ingestion never declares the agent again).
    expect(Object.entries(after).filter(([t, n]) => n > 0 && t !== "jobs" && t !== "ledger_procedures")).toEqual([["agent_tombstones", 1]]);
    expect((await server.sql.query("SELECT kind, status FROM jobs WHERE agent_id = $1 AND kind <> 'agent_deletion'", [DOOMED])).rows).toEqual([]);
    expect(after.ledger_procedures).toBe(1);
    expect((await rowsOf(LEDGER_TOO)).ledger_procedures).toBe(0);
    // account_summaries names each account's most recently active agent: accounts the doomed agent
    // shared with the kept one now name the kept one. Everything else of the kept agent is untouched.
    const { account_summaries: keptAccounts, ...keptRest } = await rowsOf(KEPT);
    const { account_summaries: keptAccountsBefore, ...keptBefore } = kept;
    expect(keptRest).toEqual(keptBefore);
    expect(keptAccounts).toBeGreaterThanOrEqual(keptAccountsBefore ?? 0);

    const audit = await server.sql.query<{ action: string; actor_type: string; details: Record<string, unknown> }>(
      "SELECT action, actor_type, details FROM audit_events WHERE target_type = 'agent' AND target_id = $1 ORDER BY id",
      [DOOMED],
    );
    const deleted = audit.rows.find((r) => r.action === "agent.deleted")!.details as Extract<AuditEvent, { type: "agent.deleted" }>["data"];
    expect(audit.rows.find((r) => r.action === "agent.deletion_started")?.details).toEqual({ include_ledger: false, reason: "retired bot" });
    expect(deleted.rows.workflows).toBe(RUNS);
    expect(deleted.batches).toBeGreaterThan(RUNS / 40);

    expect((await call(server.baseUrl, key, "DELETE", `/api/v1/agents/${DOOMED}`)).status).toBe(404);
    expect((await call(server.baseUrl, key, "GET", `/api/v1/agents/${DOOMED}`)).status).toBe(404);
  });
});
