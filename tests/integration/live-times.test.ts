// Live runs and messages dated ahead of their receipt (lib/learning/capture/live-time.ts): a run's
// created_at, a conversation message's timestamp and an OTLP span's times may be at most five
// minutes ahead of the time Proctor receives them. Beyond that a single run or a conversation is
// refused with problem+json naming the field, a batch item alone, and spans are counted as
// refused in the export's partialSuccess; nothing of them is stored. Past times stay accepted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, waitFor, type TestServer } from "../helpers/server";
import { call } from "../helpers/http";
import { admin, REFUND_TOOLS, refundRun } from "../helpers/learning";
import { jsonExport, OTLP_SERVER_ENV, postExport, recordAgentTrace, traceIdOf } from "../helpers/otlp";

let server: TestServer;
const AGENT = "live-times";
const MINUTE = 60_000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const count = async (sql: string, ...params: unknown[]) => (await server.sql.query(sql, params)).rows[0].n as number;
const runs = (workflowId: string) => count("SELECT count(*)::int AS n FROM workflows WHERE workflow_id = $1", workflowId);

beforeAll(async () => {
  server = await startTestServer({ env: OTLP_SERVER_ENV });
  const r = await call(server.baseUrl, admin, "PUT", `/api/v1/agents/${AGENT}`, { name: "Live times", tools: REFUND_TOOLS });
  expect(r.status, r.text).toBeLessThan(300);
});
afterAll(async () => {
  await server?.stop();
});

describe(`times ahead of receipt (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("refuses a run dated more than five minutes ahead with problem+json naming created_at, and stores nothing", async () => {
    for (const created_at of [at(10 * MINUTE), "2099-01-01T00:00:00Z", at(6 * MINUTE).replace("Z", "+00:00")]) {
      const run = { ...refundRun(), created_at };
      const r = await call(server.baseUrl, admin, "POST", `/api/v1/agents/${AGENT}/workflows`, run);
      expect(r.status, created_at).toBe(400);
      expect(r.headers.get("content-type")).toContain("application/problem+json");
      expect(r.json.errors.map((e: { path: string }) => e.path)).toEqual(["/created_at"]);
      expect(await runs(run.workflow_id)).toBe(0);
    }
    const agent = await call(server.baseUrl, admin, "GET", `/api/v1/agents/${AGENT}`);
    expect(agent.json).toMatchObject({ run_count: 0, last_run_at: null });
  });

  it("accepts a little clock skew and any past date", async () => {
    for (const created_at of [at(2 * MINUTE), "2001-02-03T04:05:06Z", at(-365 * 24 * 60 * MINUTE)]) {
      const run = { ...refundRun(), created_at };
      const r = await call(server.baseUrl, admin, "POST", `/api/v1/agents/${AGENT}/workflows`, run);
      expect(r.status, r.text).toBe(201);
      expect(await runs(run.workflow_id)).toBe(1);
    }
  });

  it("refuses only the batch item dated ahead (the SDK's batches)", async () => {
    const ahead = { ...refundRun(), created_at: at(60 * MINUTE) };
    const fine = { ...refundRun(), created_at: at(-MINUTE) };
    const r = await call(server.baseUrl, admin, "POST", `/api/v1/agents/${AGENT}/workflows/batch`, { workflows: [ahead, fine] });
    expect(r.status, r.text).toBe(207);
    expect(r.json.results[0]).toMatchObject({ index: 0, status: 400, error: { code: "validation_error", errors: [{ path: "/created_at" }] } });
    expect(r.json.results[1]).toMatchObject({ index: 1, status: 201 });
    expect(await runs(ahead.workflow_id)).toBe(0);
    expect(await runs(fine.workflow_id)).toBe(1);
  });

  it("refuses a conversation whose message is dated ahead, naming the message's timestamp", async () => {
    const messages = [
      { role: "user", text: "past", timestamp: at(-MINUTE) },
      { role: "assistant", text: "future", timestamp: at(24 * 60 * MINUTE) },
    ];
    const r = await call(server.baseUrl, admin, "POST", `/api/v1/agents/${AGENT}/conversations`, { thread_id: "t-live", user_id: "acct-live", messages });
    expect(r.status, r.text).toBe(400);
    expect(r.json.errors.map((e: { path: string }) => e.path)).toEqual(["/messages/1/timestamp"]);
    expect(await count("SELECT count(*)::int AS n FROM conversation_messages WHERE thread_id = 't-live'")).toBe(0);
    const ok = await call(server.baseUrl, admin, "POST", `/api/v1/agents/${AGENT}/conversations`, { thread_id: "t-live", user_id: "acct-live", messages: messages.slice(0, 1) });
    expect(ok.status, ok.text).toBeLessThan(300);
  });

  it("counts OTLP spans dated ahead as refused in partialSuccess; a trace of the present makes its run", async () => {
    const post = async (spans: ReturnType<typeof recordAgentTrace>) => {
      const res = await postExport(server.baseUrl, jsonExport(spans));
      expect(res.status).toBe(200);
      return (await res.json()) as { partialSuccess?: { rejectedSpans?: string; errorMessage?: string } };
    };
    const request = { agentId: "otel-live", agentName: "OTel live", query: "Refund order F1", user: "acct-f", thread: "t-f", calls: [{ tool: "lookup_order", args: { order_id: "F1" } }] };
    const future = recordAgentTrace({ ...request, at: Date.now() + 60 * MINUTE });
    const answer = await post(future);
    expect(answer.partialSuccess?.rejectedSpans).toBe(String(future.length));
    expect(answer.partialSuccess?.errorMessage).toContain("more than 5 minutes ahead of the time it is received");
    const traceId = traceIdOf(future);
    expect(await count("SELECT count(*)::int AS n FROM otlp_spans WHERE trace_id = $1", traceId)).toBe(0);

    const present = recordAgentTrace({ ...request, at: Date.now() - MINUTE });
    expect((await post(present)).partialSuccess?.rejectedSpans ?? "0").toBe("0");
    const presentId = traceIdOf(present);
    await waitFor(async () => (await count("SELECT count(*)::int AS n FROM workflows WHERE root_trace_id = $1", presentId)) === 1, 30_000, server.output);
  });
});
