// OTLP/HTTP trace ingestion (README "OpenTelemetry ingestion") on the built console: exports made by the
// OpenTelemetry SDK's own serializers, protobuf and JSON, become the same run through the
// worker's assembly (many traces per claim); split exports make one run, re-exports none; refusals are OTLP Status
// bodies; examples/otel-agent runs against the console. Both databases: the staging statement
// (CTEs with ON CONFLICT and FOR UPDATE) and job queueing are engine SQL.
import { spawnSync } from "node:child_process";
import http from "node:http";
import { gzipSync } from "node:zlib";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExportTraceServiceResponse, RpcStatus } from "@/lib/otlp/wire";
import { createPrismaClient, type Db } from "@/lib/db/prisma";
import { pruneStagedSpans } from "@/lib/otlp/operations";
import { ADMIN_KEY, startTestServer, waitFor, type TestServer } from "../helpers/server";
import { call, withKey } from "../helpers/http";
import { jsonExport, OTLP_SERVER_ENV, postExport, protobufExport, recordAgentTrace, traceArrived, traceIdOf, type AgentRequest } from "../helpers/otlp";

const PATH = "/api/v1/otlp/v1/traces";
const key = withKey(ADMIN_KEY);
let server: TestServer;
let db: Db;

beforeAll(async () => {
  server = await startTestServer({ env: OTLP_SERVER_ENV });
  db = createPrismaClient(server.databaseUrl, 2);
});
afterAll(async () => {
  await db?.$disconnect();
});

const post = (body: Buffer, headers: Record<string, string> = {}) => postExport(server.baseUrl, body, { protobuf: true, headers });

type Run = { workflow_id: string; agent_id: string; query: string; user_id: string | null; thread_id: string | null; steps: { tool: string; timestamp: string; error: { type: string } | null }[]; outcome: string; outcome_source: string; skills_activated: string[] };
const runsOf = async (traceId: string): Promise<Run[]> =>
  (await server.sql.query(`SELECT workflow_id, agent_id, query, user_id, thread_id, steps, outcome, outcome_source, skills_activated FROM workflows WHERE root_trace_id = $1`, [traceId])).rows;

const refund: AgentRequest = {
  agentId: "otel-shop",
  agentName: "Shop (OTel)",
  query: "Refund order A1",
  user: "acct-o1",
  thread: "t-o1",
  calls: [
    { tool: "lookup_order", args: { order_id: "A1" }, result: { status: "paid" } },
    { tool: "issue_refund", args: { order_id: "A1", amount: 12.5 }, error: { type: "TimeoutError", message: "upstream slow", asException: true } },
  ],
  status: "error",
  skills: ["sk_none"],
};

describe(`OTLP trace ingestion (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("a protobuf export and the same spans as JSON produce the same run, through the batch ingestion", async () => {
    const viaProto = recordAgentTrace(refund);
    const viaJson = recordAgentTrace(refund);
    const p = await post(protobufExport(viaProto));
    expect(p.status).toBe(200);
    expect(p.headers.get("content-type")).toBe("application/x-protobuf");
    expect(ExportTraceServiceResponse.toObject(ExportTraceServiceResponse.decode(new Uint8Array(await p.arrayBuffer())), {})).toEqual({});
    const j = await call(server.baseUrl, key, "POST", PATH, jsonExport(viaJson).toString());
    expect(j.status, j.text).toBe(200);
    expect(j.json).toEqual({});

    await traceArrived(server, traceIdOf(viaProto));
    await traceArrived(server, traceIdOf(viaJson));
    const [a] = await runsOf(traceIdOf(viaProto));
    const [b] = await runsOf(traceIdOf(viaJson));
    const same = (r: Run) => ({ ...r, workflow_id: undefined, steps: r.steps.map(({ timestamp: _t, ...s }) => s) });
    expect(same(a)).toEqual(same(b));
    const root = viaProto.find((s) => !s.parentSpanContext)!.spanContext();
    expect(a).toMatchObject({
      workflow_id: `otel:${root.traceId}:${root.spanId}`,
      agent_id: "otel-shop",
      query: "Refund order A1",
      user_id: "acct-o1",
      thread_id: "t-o1",
      outcome: "FAILURE",
      outcome_source: "REPORTED",
      skills_activated: ["sk_none"],
    });
    expect(a.steps.map((s) => [s.tool, s.error?.type ?? null])).toEqual([["lookup_order", null], ["issue_refund", "TimeoutError"]]);

    // The agent was declared on first sight with the tools its runs used (audited), and the
    // conversation messages are stored for traces and persona reflection.
    const agent = await call(server.baseUrl, key, "GET", "/api/v1/agents/otel-shop");
    expect(agent.json.name).toBe("Shop (OTel)");
    expect(agent.json.tools.map((t: { name: string }) => t.name).sort()).toEqual(["issue_refund", "lookup_order"]);
    const audit = await server.sql.query(`SELECT action FROM audit_events WHERE target_id = 'otel-shop' ORDER BY id`);
    expect(audit.rows.map((r) => r.action)).toEqual(["agent.created"]);
    const messages = await server.sql.query(`SELECT role, text FROM conversation_messages WHERE thread_id = 't-o1' AND root_trace_id = $1 ORDER BY timestamp`, [root.traceId]);
    expect(messages.rows).toEqual([{ role: "user", text: "Refund order A1" }, { role: "assistant", text: "Done." }]);
  });

  it("split exports assemble one run; a re-export is a duplicate; gzip bodies are read", async () => {
    const spans = recordAgentTrace({ ...refund, agentId: "otel-split", calls: [...refund.calls, { tool: "notify_user", args: { text: "refunded" }, result: "ok" }], status: "ok" });
    const traceId = traceIdOf(spans);
    const root = spans.find((s) => !s.parentSpanContext)!;
    const children = spans.filter((s) => s !== root);
    expect((await post(gzipSync(protobufExport(children.slice(0, 2))), { "content-encoding": "gzip" })).status).toBe(200);
    expect((await post(protobufExport(children.slice(2)))).status).toBe(200);
    expect((await post(protobufExport([root]))).status).toBe(200);
    await traceArrived(server, traceId);
    const [run] = await runsOf(traceId);
    expect(run.steps.map((s) => s.tool)).toEqual(["lookup_order", "issue_refund", "notify_user"]);
    // A status OK reports nothing (frameworks set it on every span): the last step succeeded, so the default decides.
    expect(run).toMatchObject({ outcome: "SUCCESS", outcome_source: "DEFAULT" });
    // The toolbox grew with the tool only this agent's run used (declared with all three at once here).
    const grown = await call(server.baseUrl, key, "GET", "/api/v1/agents/otel-split");
    expect(grown.json.tools.map((t: { name: string }) => t.name)).toContain("notify_user");

    // Everything again, twice: nothing new is staged, no assembly is queued, no second run.
    for (let i = 0; i < 2; i++) expect((await post(protobufExport(spans))).status).toBe(200);
    const queued = await server.sql.query(`SELECT count(*)::int AS n FROM jobs WHERE kind = 'otlp_assembly' AND payload->>'trace_id' = $1 AND status = 'PENDING'`, [traceId]);
    expect(queued.rows[0].n).toBe(0);
    expect(await runsOf(traceId)).toHaveLength(1);
  });

  it("assembles many traces of several agents at once: each trace its run and its thread's messages", async () => {
    const traces = [0, 1, 2, 3].map((i) =>
      recordAgentTrace({
        ...refund,
        agentId: i % 2 ? "otel-many-b" : "otel-many-a",
        query: `Refund order M${i}`,
        thread: `t-many-${i}`,
        calls: i === 2 ? [...refund.calls, { tool: "notify_user", args: { text: "done" }, result: "ok" }] : refund.calls,
        status: "ok",
        skills: undefined,
      }),
    );
    expect((await post(protobufExport(traces.flat()))).status).toBe(200);
    for (const t of traces) await traceArrived(server, traceIdOf(t));
    const runs = (await server.sql.query(`SELECT agent_id, query, thread_id FROM workflows WHERE agent_id LIKE 'otel-many-%' ORDER BY query`)).rows;
    expect(runs).toEqual([0, 1, 2, 3].map((i) => ({ agent_id: i % 2 ? "otel-many-b" : "otel-many-a", query: `Refund order M${i}`, thread_id: `t-many-${i}` })));
    const messages = await server.sql.query(`SELECT agent_id, thread_id, count(*)::int AS n FROM conversation_messages WHERE thread_id LIKE 't-many-%' GROUP BY 1, 2 ORDER BY 2`);
    expect(messages.rows).toEqual(runs.map((r) => ({ agent_id: r.agent_id, thread_id: r.thread_id, n: 2 })));
    // The agent's toolbox holds the tool only one of its traces used.
    const a = await call(server.baseUrl, key, "GET", "/api/v1/agents/otel-many-a");
    expect(a.json.tools.map((t: { name: string }) => t.name).sort()).toEqual(["issue_refund", "lookup_order", "notify_user"]);
  });

  it("counts spans missing required attributes as rejected, with the reason", async () => {
    const spans = recordAgentTrace({ ...refund, agentId: "otel-partial" });
    const body = JSON.parse(jsonExport(spans).toString());
    const tool = body.resourceSpans[0].scopeSpans[0].spans.find((s: { name: string }) => s.name === "execute_tool lookup_order");
    tool.attributes = tool.attributes.filter((a: { key: string }) => a.key !== "gen_ai.tool.name");
    const r = await call(server.baseUrl, key, "POST", PATH, JSON.stringify(body));
    expect(r.status, r.text).toBe(200);
    expect(r.json.partialSuccess.rejectedSpans).toBe("1");
    expect(r.json.partialSuccess.errorMessage).toMatch(/execute_tool span without gen_ai\.tool\.name/);
    await traceArrived(server, traceIdOf(spans));
    expect((await runsOf(traceIdOf(spans)))[0].steps.map((s) => s.tool)).toEqual(["issue_refund"]);
  });

  it("answers malformed bodies 400, other media types 415, missing keys 401 and oversized exports 413 with OTLP Status bodies; nothing is staged", async () => {
    const before = (await server.sql.query(`SELECT count(*)::int AS n FROM otlp_spans`)).rows[0].n;
    const bad = await post(Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x0f]));
    expect(bad.status).toBe(400);
    expect(bad.headers.get("content-type")).toBe("application/x-protobuf");
    expect(RpcStatus.toObject(RpcStatus.decode(new Uint8Array(await bad.arrayBuffer())))).toMatchObject({ code: 3, message: expect.stringMatching(/protobuf/) });
    const badJson = await call(server.baseUrl, key, "POST", PATH, '{"resourceSpans": [{"scopeSpans": 5}]}');
    expect(badJson.status).toBe(400);
    expect(badJson.json).toMatchObject({ code: 3 });
    const notGzip = await post(Buffer.from("not gzip"), { "content-encoding": "gzip" });
    expect(notGzip.status).toBe(400);
    const text = await post(Buffer.from("hello"), { "content-type": "text/plain" });
    expect(text.status).toBe(415);
    expect(RpcStatus.toObject(RpcStatus.decode(new Uint8Array(await text.arrayBuffer())))).toMatchObject({ code: 3 });
    const anonymous = await fetch(server.baseUrl + PATH, { method: "POST", headers: { "content-type": "application/json" }, body: jsonExport(recordAgentTrace(refund)).toString() });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ code: 16 });
    // Over 8 MiB declared: 413 from the request gate, before the body is read, still an OTLP Status.
    const tooLarge = await new Promise<{ status: number; type: string; body: Buffer }>((resolve, reject) => {
      const req = http.request(server.baseUrl + PATH, { method: "POST", headers: { authorization: `Bearer ${ADMIN_KEY}`, "content-type": "application/json", "content-length": String(9 * 1024 * 1024) } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"]), body: Buffer.concat(chunks) }));
      });
      req.on("error", reject);
      req.flushHeaders();
    });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.type).toBe("application/json");
    expect(JSON.parse(tooLarge.body.toString())).toMatchObject({ code: 3, message: expect.stringMatching(/exceeds/) });
    expect((await server.sql.query(`SELECT count(*)::int AS n FROM otlp_spans`)).rows[0].n).toBe(before);
  });

  it("prunes staged traces that received nothing for a day", async () => {
    await server.sql.query(`INSERT INTO otlp_traces (trace_id, last_span_at) VALUES ('aa'||repeat('0', 30), now() - interval '25 hours'), ('bb'||repeat('0', 30), now() - interval '1 hour')`);
    await server.sql.query(
      `INSERT INTO otlp_spans (trace_id, span_id, name, start_ns, end_ns, status_code, attributes, events)
       VALUES ('aa'||repeat('0', 30), 'a1', 'old', 1, 2, 0, '{}', '[]'), ('bb'||repeat('0', 30), 'b1', 'new', 1, 2, 0, '{}', '[]')`,
    );
    expect(await pruneStagedSpans(db)).toBe(1);
    expect((await server.sql.query(`SELECT name FROM otlp_spans WHERE span_id IN ('a1', 'b1')`)).rows).toEqual([{ name: "new" }]);
  });

  it("examples/otel-agent exports its runs with the OpenTelemetry SDK and the OTLP proto exporter", async () => {
    const root = path.resolve(import.meta.dirname, "../..");
    const r = spawnSync(path.join(root, "node_modules/.bin/tsx"), ["examples/otel-agent/index.ts"], {
      cwd: root,
      env: { ...process.env, CONSOLE_URL: server.baseUrl, PROCTOR_API_KEY: ADMIN_KEY, AGENT_ID: "otel-example" },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const ids = [...r.stdout.matchAll(/^run (otel:\S+)$/gm)].map((m) => m[1]);
    expect(ids).toHaveLength(3);
    const stored = async () => (await server.sql.query(`SELECT workflow_id, outcome FROM workflows WHERE agent_id = 'otel-example'`)).rows;
    await waitFor(async () => (await stored()).length === 3, 30_000, server.output);
    expect((await stored()).map((w) => w.workflow_id).sort()).toEqual([...ids].sort());
    // By the ids it printed, in request order: its three runs can start within one millisecond,
    // so their created_at need not order them.
    const outcomeOf = new Map((await stored()).map((w) => [w.workflow_id, w.outcome]));
    expect(ids.map((id) => outcomeOf.get(id))).toEqual(["SUCCESS", "SUCCESS", "FAILURE"]);
  });
});
