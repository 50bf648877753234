// Dead jobs of every kind (README "Review inbox" and "Agent API"): a trace assembly that failed
// every attempt is listed (kind, attempts, error class: never its payload or error text), retried
// over the agent API and then becomes runs; dismissing one from the inbox deletes it, stops the
// inbox counting it and is audited with its reason; viewers are refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_KEY, ADMIN_PASSWORD, startTestServer, waitFor, type TestServer } from "../helpers/server";
import { call, login, withKey, type Caller } from "../helpers/http";
import { callAction } from "../helpers/actions";
import { createConsoleUser } from "../helpers/console";
import { recordAgentTrace, splitJsonExports, traceIdOf, type AgentRequest } from "../helpers/otlp";
import { startWorker } from "../helpers/worker";

const ASSEMBLY = "otlp_assembly";
/** The stored error's message stands in for private text a failure may quote: it must show nowhere. */
const PRIVATE = "refund for Jane Roe at 12 Elm Street";
const key = withKey(ADMIN_KEY);
let server: TestServer;
let admin: Caller;
let viewer: Caller;

beforeAll(async () => {
  server = await startTestServer({ env: { PROCTOR_WORKER: "0", PROCTOR_OTLP_SETTLE_MS: "0" } });
  admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  await createConsoleUser(server.baseUrl, admin, { email: "dead-jobs-viewer@test.local", role: "VIEWER", password: ADMIN_PASSWORD });
  viewer = await login(server.baseUrl, "dead-jobs-viewer@test.local", ADMIN_PASSWORD);
});
afterAll(async () => {
  await server?.stop();
});

const request = (query: string): AgentRequest => ({
  agentId: "dead-shop",
  agentName: "Dead shop",
  query,
  user: "acct-d1",
  calls: [{ tool: "lookup_order", args: { order_id: "D1" }, result: { status: "paid" } }],
  status: "ok",
});

/**
 * Exports a trace in two parts (staged; no worker runs: its assembly job waits) and leaves that
 * job dead, as failJob does after the last attempt.
 */
async function deadAssembly(query: string): Promise<{ traceId: string; jobId: string }> {
  const spans = recordAgentTrace(request(query));
  const traceId = traceIdOf(spans);
  for (const part of splitJsonExports(spans)) {
    const r = await call(server.baseUrl, key, "POST", "/api/v1/otlp/v1/traces", part.toString());
    expect(r.status, r.text).toBe(200);
  }
  const job = await server.sql.query(
    `UPDATE jobs SET status = 'DEAD', attempts = 5, last_error = $2, finished_at = now(), locked_at = NULL
     WHERE kind = $1 AND payload->>'trace_id' = $3 RETURNING id::text AS id`,
    [ASSEMBLY, `TypeError: cannot read ${PRIVATE}`, traceId],
  );
  expect(job.rowCount).toBe(1);
  return { traceId, jobId: job.rows[0].id };
}

const inbox = async (who: Caller) => (await call(server.baseUrl, who, "GET", "/")).text;
const runsOf = async (traceId: string) => (await server.sql.query("SELECT agent_id FROM workflows WHERE root_trace_id = $1", [traceId])).rows;
const auditOf = async (action: string, jobId: string) =>
  (await server.sql.query("SELECT actor_type, details FROM audit_events WHERE action = $1 AND target_type = 'job' AND target_id = $2", [action, jobId])).rows;

describe(`dead jobs of every kind (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("a dead trace assembly is listed without its text, retried over the API (audited) and becomes runs; viewers are refused", async () => {
    const { traceId, jobId } = await deadAssembly("Refund order D1");

    // The inbox counts it, names its kind and error class, and offers admins the decision.
    const page = await inbox(admin);
    expect(page).toContain("Dead jobs");
    expect(page).toMatch(/1 otlp assembly job</);
    expect(page).toContain("last error TypeError");
    expect(page).toContain("Dismiss");
    expect(page).not.toContain(PRIVATE);
    expect(await inbox(viewer)).not.toContain("Dismiss");

    const listed = await call(server.baseUrl, key, "GET", "/api/v1/jobs?status=dead");
    expect(listed.status, listed.text).toBe(200);
    expect(listed.json.jobs).toEqual([expect.objectContaining({ job_id: jobId, kind: ASSEMBLY, agent_id: null, attempts: 5, error_class: "TypeError" })]);
    expect(listed.text).not.toContain(PRIVATE);
    expect(listed.text).not.toContain(traceId);
    expect((await call(server.baseUrl, key, "GET", "/api/v1/jobs")).status).toBe(400);

    // Viewers read but do not decide (keys bound to agents: the access matrix).
    const origin = { origin: server.baseUrl };
    expect((await call(server.baseUrl, viewer, "POST", `/api/v1/jobs/${jobId}/retry`, {}, origin)).status).toBe(403);
    expect((await callAction(server, viewer, "lib/actions/jobs.ts#retryDeadJobs", { select: { job_id: jobId } })).kind).toBe("forbidden");
    expect((await callAction(server, viewer, "lib/actions/jobs.ts#dismissDeadJobs", { select: { job_id: jobId }, reason: "x" })).kind).toBe("forbidden");
    expect((await server.sql.query("SELECT status FROM jobs WHERE id = $1", [jobId])).rows).toEqual([{ status: "DEAD" }]);

    const retried = await call(server.baseUrl, key, "POST", `/api/v1/jobs/${jobId}/retry`, { reason: "assembly fixed" });
    expect(retried.status, retried.text).toBe(200);
    expect(retried.json.jobs).toEqual([expect.objectContaining({ job_id: jobId, kind: ASSEMBLY, status: "pending" })]);
    const row = await server.sql.query("SELECT status, attempts, locked_at, finished_at, run_after <= now() AS due FROM jobs WHERE id = $1", [jobId]);
    expect(row.rows).toEqual([{ status: "PENDING", attempts: 0, locked_at: null, finished_at: null, due: true }]);
    expect(await auditOf("job.retried", jobId)).toEqual([
      { actor_type: "api_key", details: { kind: ASSEMBLY, agent_id: null, attempts: 5, error_class: "TypeError", reason: "assembly fixed" } },
    ]);
    // Only a dead job is retried.
    expect((await call(server.baseUrl, key, "POST", `/api/v1/jobs/${jobId}/retry`)).status).toBe(404);

    const worker = startWorker(server);
    try {
      await waitFor(async () => (await runsOf(traceId)).length === 1, 30_000, worker.output);
    } finally {
      await worker.stop();
    }
    expect(await runsOf(traceId)).toEqual([{ agent_id: "dead-shop" }]);
    expect((await server.sql.query("SELECT status FROM jobs WHERE id = $1", [jobId])).rows).toEqual([{ status: "DONE" }]);
  });

  it("dismissing a kind's dead jobs from the inbox needs a reason, deletes them, stops the count and is audited", async () => {
    const { jobId } = await deadAssembly("Refund order D2");
    const other = await deadAssembly("Refund order D3");
    expect(await inbox(admin)).toMatch(/2 otlp assembly jobs</);
    const select = { kind: ASSEMBLY, agent_id: null };

    const noReason = await callAction(server, admin, "lib/actions/jobs.ts#dismissDeadJobs", { select, reason: " " });
    expect(noReason.kind).toBe("validation_error");
    const r = await callAction(server, admin, "lib/actions/jobs.ts#dismissDeadJobs", { select, reason: "traces of a test agent" });
    expect(r.kind, r.text).toBe("ok");
    expect((r.data as { jobs: { job_id: string; status: string }[] }).jobs.map((j) => [j.job_id, j.status])).toEqual([
      [jobId, "dismissed"],
      [other.jobId, "dismissed"],
    ]);
    expect((await server.sql.query("SELECT id FROM jobs WHERE id = ANY($1::bigint[])", [[jobId, other.jobId]])).rows).toEqual([]);
    for (const id of [jobId, other.jobId]) {
      expect(await auditOf("job.dismissed", id)).toEqual([
        { actor_type: "user", details: { kind: ASSEMBLY, agent_id: null, attempts: 5, error_class: "TypeError", reason: "traces of a test agent" } },
      ]);
    }
    const page = await inbox(admin);
    expect(page).not.toContain("otlp assembly job");
    expect(page).not.toMatch(/id="dead_jobs"/);
    expect((await callAction(server, admin, "lib/actions/jobs.ts#dismissDeadJobs", { select, reason: "again" })).kind).toBe("not_found");

    // The audit page tells what was dismissed, never the job's text.
    const audit = await call(server.baseUrl, admin, "GET", "/audit");
    expect(audit.text.replaceAll("<!-- -->", "")).toMatch(/Dismissed dead otlp assembly job \d+ after 5 attempts \(last error TypeError\)/);
    expect(audit.text).not.toContain(PRIVATE);
  });

  it("the API dismisses one job with a required reason", async () => {
    const { jobId } = await deadAssembly("Refund order D4");
    expect((await call(server.baseUrl, key, "POST", `/api/v1/jobs/${jobId}/dismiss`, {})).status).toBe(400);
    expect((await server.sql.query("SELECT status FROM jobs WHERE id = $1", [jobId])).rows).toEqual([{ status: "DEAD" }]);
    const r = await call(server.baseUrl, key, "POST", `/api/v1/jobs/${jobId}/dismiss`, { reason: "not needed" });
    expect(r.status, r.text).toBe(200);
    expect(r.json.jobs).toEqual([expect.objectContaining({ job_id: jobId, status: "dismissed", error_class: "TypeError" })]);
    expect((await server.sql.query("SELECT id FROM jobs WHERE id = $1", [jobId])).rows).toEqual([]);
    expect((await call(server.baseUrl, key, "GET", "/api/v1/jobs?status=dead")).json.jobs).toEqual([]);
  });
});
