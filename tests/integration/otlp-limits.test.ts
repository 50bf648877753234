// What one OTLP export may cost and change (README "OpenTelemetry ingestion", SECURITY.md): the
// limits per export (413) and per span (refused alone, partialSuccess), a gzip bomb cut while it
// inflates; hostile depth that fails alone while the good trace beside it is stored; a deleted
// agent that stays deleted; toolboxes an ingest key may grow (only its own agents', capped),
// audited with the key as the actor.
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExportTraceServiceRequest, RpcStatus } from "@/lib/otlp/wire";
import { MAX_ATTRIBUTE_VALUE_BYTES, MAX_ATTRIBUTES_PER_EXPORT, MAX_ATTRIBUTES_PER_SPAN, MAX_AUTO_TOOLS_PER_AGENT, MAX_SPANS_PER_EXPORT, OTLP_DECODED_BYTES } from "@/lib/otlp/limits";
import { createPrismaClient, type Db } from "@/lib/db/prisma";
import { observeAgent } from "@/lib/learning/operations";
import { systemAuditContext } from "@/lib/audit/record";
import { ADMIN_KEY, startTestServer, waitFor, type TestServer } from "../helpers/server";
import { call, withKey } from "../helpers/http";
import { jsonExport, OTLP_SERVER_ENV, postExport, recordAgentTrace, traceArrived, traceIdOf, type AgentRequest } from "../helpers/otlp";

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

const post = (body: Buffer | string, headers: Record<string, string> = {}) => postExport(server.baseUrl, body, { headers });
const postJson = async (body: unknown) => {
  const r = await post(JSON.stringify(body));
  return { status: r.status, json: (await r.json()) as { partialSuccess?: { rejectedSpans: string; errorMessage: string } } };
};
const sql = async <T = Record<string, unknown>>(text: string, values: unknown[] = []) => (await server.sql.query(text, values)).rows as T[];
const runsOf = (traceId: string) => sql<{ agent_id: string; steps: { tool: string; arguments?: unknown }[] }>(`SELECT agent_id, steps FROM workflows WHERE root_trace_id = $1`, [traceId]);

const request = (agentId: string, over: Partial<AgentRequest> = {}): AgentRequest => ({
  agentId,
  query: `Refund order for ${agentId}`,
  calls: [{ tool: "lookup_order", args: { order_id: "A1" }, result: { status: "paid" } }],
  status: "ok",
  ...over,
});
/** OTLP JSON of these spans, for editing. */
type JsonSpan = { name: string; spanId: string; parentSpanId?: string; traceId: string; attributes: { key: string; value: Record<string, unknown> }[] };
const jsonOf = (spans: ReturnType<typeof recordAgentTrace>) => JSON.parse(jsonExport(spans).toString()) as { resourceSpans: { scopeSpans: { spans: JsonSpan[] }[] }[] };
const spansIn = (body: ReturnType<typeof jsonOf>) => body.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans));
const toolSpan = (body: ReturnType<typeof jsonOf>) => spansIn(body).find((s) => s.name.startsWith("execute_tool"))!;
const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");

/** `n` minimal spans (no convention) as OTLP JSON. */
const minimalSpans = (n: number) => ({
  resourceSpans: [{ scopeSpans: [{ spans: Array.from({ length: n }, (_, i) => ({ traceId: hex(i + 1, 32), spanId: hex(i + 1, 16), name: "s", startTimeUnixNano: "1700000000000000000" })) }] }],
});

describe(`OTLP limits (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("refuses an export of more spans, or more attributes in all, than the limits whole (413, JSON and protobuf) before staging any", async () => {
    const before = (await sql<{ n: number }>(`SELECT count(*)::int AS n FROM otlp_spans`))[0].n;
    const body = minimalSpans(MAX_SPANS_PER_EXPORT + 1);
    const json = await post(JSON.stringify(body));
    expect(json.status).toBe(413);
    expect(await json.json()).toMatchObject({ code: 3, message: expect.stringContaining(`at most ${MAX_SPANS_PER_EXPORT} spans`) });
    for (const s of body.resourceSpans[0].scopeSpans[0].spans) Object.assign(s, { traceId: Buffer.from(s.traceId, "hex"), spanId: Buffer.from(s.spanId, "hex") });
    const bytes = Buffer.from(ExportTraceServiceRequest.encode(ExportTraceServiceRequest.fromObject(body)).finish());
    const proto = await post(bytes, { "content-type": "application/x-protobuf" });
    expect(proto.status).toBe(413);
    expect(RpcStatus.toObject(RpcStatus.decode(new Uint8Array(await proto.arrayBuffer())))).toMatchObject({ message: expect.stringContaining(`at most ${MAX_SPANS_PER_EXPORT} spans`) });
    // Fewer spans, but more attributes in all than an export may hold.
    const dense = minimalSpans(Math.ceil(MAX_ATTRIBUTES_PER_EXPORT / (MAX_ATTRIBUTES_PER_SPAN - 1)) + 1);
    for (const s of dense.resourceSpans[0].scopeSpans[0].spans)
      Object.assign(s, { attributes: Array.from({ length: MAX_ATTRIBUTES_PER_SPAN - 1 }, (_, i) => ({ key: `a${i}`, value: { intValue: "1" } })) });
    const many = await post(gzipSync(JSON.stringify(dense)), { "content-encoding": "gzip" });
    expect(many.status).toBe(413);
    expect(await many.json()).toMatchObject({ message: expect.stringContaining(`at most ${MAX_ATTRIBUTES_PER_EXPORT} attributes`) });
    expect((await sql<{ n: number }>(`SELECT count(*)::int AS n FROM otlp_spans`))[0].n).toBe(before);
  });

  it("cuts a gzip bomb while inflating it: 413 past the decoded limit, whatever it would inflate to", async () => {
    // Compressed first: a connection left idle while a bomb is made may meet the server's keep-alive timeout.
    const bombs = [OTLP_DECODED_BYTES + 1024 * 1024, 8 * OTLP_DECODED_BYTES].map((size) => ({ size, body: gzipSync(Buffer.alloc(size, " ")) }));
    for (const { size, body } of bombs) {
      const r = await post(body, { "content-encoding": "gzip" });
      expect(r.status, `a bomb of ${size} bytes`).toBe(413);
    }
    // Within the limit, gzip still works.
    const spans = recordAgentTrace(request("otel-gzip"));
    expect((await post(gzipSync(jsonExport(spans)), { "content-encoding": "gzip" })).status).toBe(200);
  });

  it("refuses a span over a per-span limit alone, naming the limit; the rest of its export is staged", async () => {
    const wide = recordAgentTrace(request("otel-wide"));
    const huge = recordAgentTrace(request("otel-huge"));
    const deep = recordAgentTrace(request("otel-deep-kv"));
    const good = recordAgentTrace(request("otel-limits-good"));
    const body = jsonOf([...wide, ...huge, ...deep, ...good]);
    const spans = spansIn(body);
    const inTrace = (t: typeof wide) => spans.filter((s) => s.traceId === traceIdOf(t));
    toolSpan({ resourceSpans: [{ scopeSpans: [{ spans: inTrace(wide) }] }] }).attributes.push(
      ...Array.from({ length: MAX_ATTRIBUTES_PER_SPAN }, (_, i) => ({ key: `extra.${i}`, value: { intValue: String(i) } })),
    );
    toolSpan({ resourceSpans: [{ scopeSpans: [{ spans: inTrace(huge) }] }] }).attributes.push({ key: "gen_ai.tool.call.result", value: { stringValue: "x".repeat(MAX_ATTRIBUTE_VALUE_BYTES + 1) } });
    let nested: Record<string, unknown> = { stringValue: "bottom" };
    for (let i = 0; i < 100; i++) nested = { kvlistValue: { values: [{ key: "k", value: nested }] } };
    toolSpan({ resourceSpans: [{ scopeSpans: [{ spans: inTrace(deep) }] }] }).attributes.push({ key: "deep", value: nested });

    const r = await postJson(body);
    expect(r.status).toBe(200);
    expect(r.json.partialSuccess?.rejectedSpans).toBe("3");
    expect(r.json.partialSuccess?.errorMessage).toContain(`more than ${MAX_ATTRIBUTES_PER_SPAN} attributes`);
    expect(r.json.partialSuccess?.errorMessage).toContain(`an attribute value over ${MAX_ATTRIBUTE_VALUE_BYTES} bytes`);
    expect(r.json.partialSuccess?.errorMessage).toContain("nesting deeper than 64 levels");
    await traceArrived(server, traceIdOf(good));
    expect((await runsOf(traceIdOf(good)))[0].steps.map((s) => s.tool)).toEqual(["lookup_order"]);
    // The refused tool spans are not staged; the rest of their traces are.
    await traceArrived(server, traceIdOf(huge));
    expect((await runsOf(traceIdOf(huge)))[0].steps).toEqual([]);
  });

  it("a poisoned trace fails alone: deep JSON arguments and a 60-deep trace beside a good trace of the same agent are all stored", async () => {
    const agentId = "otel-poison";
    const poisoned = recordAgentTrace(request(agentId, { query: "poisoned" }));
    const good = recordAgentTrace(request(agentId, { query: "good" }));
    const body = jsonOf([...poisoned, ...good]);
    // Without its model calls, the run's arguments are the tool span's own.
    for (const ss of body.resourceSpans.flatMap((rs) => rs.scopeSpans)) ss.spans = ss.spans.filter((s) => s.traceId !== traceIdOf(poisoned) || !s.name.startsWith("chat"));
    const tool = spansIn(body).find((s) => s.traceId === traceIdOf(poisoned) && s.name.startsWith("execute_tool"))!;
    const args = "[".repeat(5000) + "]".repeat(5000);
    tool.attributes.find((a) => a.key === "gen_ai.tool.call.arguments")!.value = { stringValue: args };
    // A trace 60 spans deep: the tool call under 59 plain spans under the invocation.
    const tall = jsonOf(recordAgentTrace(request(agentId, { query: "tall" })));
    const tallSpans = tall.resourceSpans[0].scopeSpans[0].spans;
    const root = tallSpans.find((s) => !s.parentSpanId)!;
    const tallTool = toolSpan(tall);
    let parent = root.spanId;
    for (let i = 0; i < 59; i++) {
      const spanId = hex(0xabc000 + i, 16);
      tallSpans.push({ ...root, name: `step ${i}`, spanId, parentSpanId: parent, attributes: [] });
      parent = spanId;
    }
    tallTool.parentSpanId = parent;
    body.resourceSpans.push(...tall.resourceSpans);

    const r = await postJson(body);
    expect(r.status).toBe(200);
    expect(r.json.partialSuccess).toBeUndefined();
    for (const t of [good, poisoned]) await traceArrived(server, traceIdOf(t));
    await traceArrived(server, tallTool.traceId);
    expect((await runsOf(traceIdOf(good)))[0].steps.map((s) => s.tool)).toEqual(["lookup_order"]);
    // Nesting deeper than stored JSON may be stays the text the exporter sent.
    expect((await runsOf(traceIdOf(poisoned)))[0].steps[0].arguments).toBe(args);
    expect((await runsOf(tallTool.traceId))[0].steps.map((s) => s.tool)).toEqual(["lookup_order"]);
  });

  it("never declares a deleted agent again: its spans are refused until an admin declares it", async () => {
    const agentId = "otel-deleted";
    const first = recordAgentTrace(request(agentId));
    expect((await post(jsonExport(first))).status).toBe(200);
    await traceArrived(server, traceIdOf(first));
    const del = await call(server.baseUrl, key, "DELETE", `/api/v1/agents/${agentId}`);
    expect(del.status, del.text).toBe(202);
    // Spans exported while the deletion runs, and after it finished, are refused with the reason.
    const during = await postJson(jsonOf(recordAgentTrace(request(agentId))));
    expect(during.json.partialSuccess?.errorMessage).toContain(`agent '${agentId}' was deleted`);
    await waitFor(async () => (await call(server.baseUrl, key, "GET", `/api/v1/agents/${agentId}`)).status === 404, 30_000, server.output);
    const after = await postJson(jsonOf(recordAgentTrace(request(agentId))));
    expect(Number(after.json.partialSuccess?.rejectedSpans)).toBeGreaterThan(0);
    expect(after.json.partialSuccess?.errorMessage).toContain(`agent '${agentId}' was deleted`);
    // A trace staged before the deletion and assembled after it declares nothing either.
    expect(await observeAgent(db, { agentId, name: agentId, tools: [{ name: "lookup_order" }], grow: "own", maxTools: MAX_AUTO_TOOLS_PER_AGENT }, systemAuditContext("test"))).toBe("deleted");
    expect((await call(server.baseUrl, key, "GET", `/api/v1/agents/${agentId}`)).status).toBe(404);
    expect(await sql(`SELECT 1 FROM audit_events WHERE action = 'agent.created' AND target_id = $1 AND at > (SELECT max(at) FROM audit_events WHERE action = 'agent.deletion_started' AND target_id = $1)`, [agentId])).toEqual([]);

    // An admin declares it again: its runs are received again.
    const put = await call(server.baseUrl, key, "PUT", `/api/v1/agents/${agentId}`, { name: "Declared again", tools: [{ name: "lookup_order" }] });
    expect(put.status, put.text).toBe(200);
    const back = recordAgentTrace(request(agentId));
    expect((await postJson(jsonOf(back))).json.partialSuccess).toBeUndefined();
    await traceArrived(server, traceIdOf(back));
  });

  it("grows only the toolboxes of agents the ingestion declared, up to the cap, audited as the ingest key", async () => {
    const declared = await call(server.baseUrl, key, "PUT", "/api/v1/agents/otel-admin-declared", { name: "Declared by an admin", tools: [{ name: "lookup_order" }] });
    expect(declared.status, declared.text).toBe(200);
    const sneaky = recordAgentTrace(request("otel-admin-declared", { calls: [{ tool: "exfiltrate_all_data", args: {}, result: "ok" }] }));
    expect((await post(jsonExport(sneaky))).status).toBe(200);
    await traceArrived(server, traceIdOf(sneaky));
    const after = await call(server.baseUrl, key, "GET", "/api/v1/agents/otel-admin-declared");
    expect(after.json.tools.map((t: { name: string }) => t.name)).toEqual(["lookup_order"]);
    expect(await sql(`SELECT 1 FROM audit_events WHERE action = 'agent.tools_observed' AND target_id = 'otel-admin-declared'`)).toEqual([]);

    // An agent the ingestion declares itself: its toolbox holds at most the cap, and the key acted.
    const many = Array.from({ length: MAX_AUTO_TOOLS_PER_AGENT + 50 }, (_, i) => ({ tool: `tool_${i}`, args: {}, result: "ok" }));
    const flood = recordAgentTrace(request("otel-auto-cap", { calls: many }));
    expect((await post(jsonExport(flood))).status).toBe(200);
    await traceArrived(server, traceIdOf(flood));
    const auto = await call(server.baseUrl, key, "GET", "/api/v1/agents/otel-auto-cap");
    expect(auto.json.tools).toHaveLength(MAX_AUTO_TOOLS_PER_AGENT);
    const [keyRow] = await sql<{ id: string }>(`SELECT id FROM api_keys WHERE prefix = 'testadmin1'`);
    const audit = await sql<{ actor_type: string; actor_id: string }>(`SELECT actor_type, actor_id FROM audit_events WHERE action = 'agent.created' AND target_id = 'otel-auto-cap'`);
    expect(audit).toEqual([{ actor_type: "api_key", actor_id: keyRow.id }]);
    // A later run's new tool grows nothing past the cap.
    const more = recordAgentTrace(request("otel-auto-cap", { calls: [{ tool: "one_more", args: {}, result: "ok" }] }));
    expect((await post(jsonExport(more))).status).toBe(200);
    await traceArrived(server, traceIdOf(more));
    expect((await call(server.baseUrl, key, "GET", "/api/v1/agents/otel-auto-cap")).json.tools).toHaveLength(MAX_AUTO_TOOLS_PER_AGENT);
  });
});
