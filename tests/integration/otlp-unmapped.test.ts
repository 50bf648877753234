// OTLP traces that make no runs are never dropped silently (README "OpenTelemetry ingestion"):
// an export whose traces hold no span of a convention Proctor reads is answered with
// partialSuccess (rejectedSpans, errorMessage per reason) and one log line, and nothing of it is
// staged; a trace that settles without a run (model calls only, runs the ingestion refuses) is
// counted with its reason once. Both kinds appear where an admin looks (the inbox's counts and
// rows, the /api/console/inbox route, the agents list and the agent's page), with a sample
// span's name and attribute keys and never a value, and go with their agent. Both databases:
// the staging statement and the counting upsert (NULLS NOT DISTINCT) are engine SQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { context, trace, type Span } from "@opentelemetry/api";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { ExportTraceServiceResponse } from "@/lib/otlp/wire";
import { createPrismaClient, type Db } from "@/lib/db/prisma";
import { inboxCounts } from "@/lib/console/inbox";
import { loadInboxPage } from "@/lib/console/pages/inbox";
import { loadAgentPage } from "@/lib/learning/pages/agent";
import { loadAgentsPage } from "@/lib/learning/pages/agents";
import { ADMIN_EMAIL, ADMIN_KEY, ADMIN_PASSWORD, startTestServer, waitFor, type TestServer } from "../helpers/server";
import { call, login, withKey, type Caller } from "../helpers/http";
import { jsonExport, OTLP_SERVER_ENV, postExport, protobufExport, recordAgentTrace, traceIdOf } from "../helpers/otlp";

const PATH = "/api/v1/otlp/v1/traces";
const key = withKey(ADMIN_KEY);
const ADMIN_CAN = () => true;
let server: TestServer;
let db: Db;
let admin: Caller;

beforeAll(async () => {
  server = await startTestServer({ env: OTLP_SERVER_ENV });
  db = createPrismaClient(server.databaseUrl, 2);
  admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
});
afterAll(async () => {
  await db?.$disconnect();
});

type Start = (name: string, attributes: Record<string, string>, parent?: Span) => Span;

/** Spans recorded with the OpenTelemetry SDK: `build` starts them (children under their parent); all end in reverse order. */
function record(service: string, build: (start: Start) => void): ReadableSpan[] {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ resource: resourceFromAttributes({ "service.name": service }), spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer("proctor-tests");
  let t = Date.UTC(2026, 10, 30, 12, 0, 0);
  const opened: Span[] = [];
  build((name, attributes, parent) => {
    const span = tracer.startSpan(name, { startTime: (t += 10), attributes }, parent ? trace.setSpan(context.active(), parent) : undefined);
    opened.push(span);
    return span;
  });
  for (const span of opened.reverse()) span.end((t += 10));
  return exporter.getFinishedSpans();
}

const refusals = () => server.output().split("\n").filter((l) => l.includes("otlp: refused"));
type Unmapped = { agent_id: string | null; reason: string; traces: number; spans: number; sample_span_name: string; sample_attribute_keys: string[] };
const unmapped = async (): Promise<Unmapped[]> =>
  (await server.sql.query(`SELECT agent_id, reason, traces::int, spans::int, sample_span_name, sample_attribute_keys FROM otlp_unmapped_traces ORDER BY id`)).rows;
const assembledAt = async (traceId: string) => (await server.sql.query(`SELECT assembled_at FROM otlp_traces WHERE trace_id = $1`, [traceId])).rows[0]?.assembled_at as Date | null | undefined;

const PRIVATE = "my card ends in 4242, parcel for alice@example.com";

describe(`OTLP traces that make no runs (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("refuses the spans of traces in no convention Proctor reads: partialSuccess per reason, one log line, nothing staged, counted for the console", async () => {
    // A framework Proctor does not read: its own attribute names, an HTTP call below.
    const spans = record("home-grown-agent", (start) => {
      const root = start("agent.run", { "myagent.session": "s-1", "myagent.input": PRIVATE });
      start("myagent.tool lookup_order", { "myagent.tool.args": '{"order_id":"A1"}' }, root);
      start("POST", { "http.request.method": "POST", "url.full": "https://api.example.com/v1/orders/1234567" }, root);
    });
    const before = refusals().length;
    const r = await call(server.baseUrl, key, "POST", PATH, jsonExport(spans).toString());
    expect(r.status, r.text).toBe(200);
    expect(r.json.partialSuccess.rejectedSpans).toBe("3");
    expect(r.json.partialSuccess.errorMessage).toMatch(/^3 spans: none of its spans is in a convention Proctor reads \(OpenTelemetry GenAI, /);

    // The same in protobuf: the answer is an ExportTraceServiceResponse with the same partial success.
    const again = record("home-grown-agent", (start) => void start("agent.run", { "myagent.input": PRIVATE }));
    const p = await postExport(server.baseUrl, protobufExport(again), { protobuf: true });
    expect(p.status).toBe(200);
    const answer = ExportTraceServiceResponse.toObject(ExportTraceServiceResponse.decode(new Uint8Array(await p.arrayBuffer())), { longs: String });
    expect(answer).toMatchObject({ partialSuccess: { rejectedSpans: "1", errorMessage: expect.stringMatching(/^1 span: none of its spans/) } });

    // One log line per export, counts and reasons only.
    await waitFor(async () => refusals().length === before + 2, 10_000, server.output);
    const lines = refusals().slice(before);
    expect(lines[0]).toMatch(/otlp: refused 3 of 3 spans of an export: 3 spans: none of its spans is in a convention Proctor reads/);
    expect(lines.join("\n")).not.toContain("4242");

    // Nothing staged, no job queued; the two traces counted once each, agent-less, without a value.
    for (const t of [spans, again]) {
      expect((await server.sql.query(`SELECT count(*)::int AS n FROM otlp_spans WHERE trace_id = $1`, [traceIdOf(t)])).rows[0].n).toBe(0);
      expect((await server.sql.query(`SELECT count(*)::int AS n FROM jobs WHERE payload->>'trace_id' = $1`, [traceIdOf(t)])).rows[0].n).toBe(0);
    }
    const [row] = (await unmapped()).filter((u) => u.reason.startsWith("none of its spans"));
    expect(row).toMatchObject({ agent_id: null, traces: 2, spans: 4, sample_span_name: "agent.run", sample_attribute_keys: ["myagent.input"] });
    expect(JSON.stringify(await unmapped())).not.toMatch(/4242|alice|1234567/);
  });

  it("counts a trace that settles without runs once, with its reason; the inbox, its route and the agents list show it", async () => {
    const counts0 = await inboxCounts(db, ADMIN_CAN);
    // Model calls only (GenAI chat spans): a known convention, so staged, but no invocation or tool call.
    const chatOnly = record("chat-only-app", (start) => {
      const root = start("chat gpt-test", { "gen_ai.operation.name": "chat", "gen_ai.input.messages": JSON.stringify([{ role: "user", parts: [{ type: "text", content: PRIVATE }] }]) });
      start("POST", { "http.request.method": "POST" }, root);
    });
    const r = await call(server.baseUrl, key, "POST", PATH, jsonExport(chatOnly).toString());
    expect(r.status, r.text).toBe(200);
    expect(r.json).toEqual({});
    const traceId = traceIdOf(chatOnly);
    await waitFor(async () => (await unmapped()).some((u) => u.reason.startsWith("no agent invocation")), 30_000, server.output);
    const row = (await unmapped()).find((u) => u.reason.startsWith("no agent invocation"))!;
    expect(row).toMatchObject({ agent_id: null, traces: 1, spans: 2, sample_span_name: "chat gpt-test", sample_attribute_keys: ["gen_ai.input.messages", "gen_ai.operation.name"] });
    expect(JSON.stringify(row)).not.toMatch(/4242|alice/);

    // A late span re-assembles the trace: still one trace counted.
    const first = await assembledAt(traceId);
    const late = chatOnly.find((s) => s.name === "POST")!;
    const body = JSON.parse(jsonExport([late]).toString());
    body.resourceSpans[0].scopeSpans[0].spans[0].spanId = "00000000000000aa";
    expect((await call(server.baseUrl, key, "POST", PATH, JSON.stringify(body))).json).toEqual({});
    await waitFor(async () => (await assembledAt(traceId))!.getTime() > first!.getTime(), 30_000, server.output);
    expect((await unmapped()).find((u) => u.reason.startsWith("no agent invocation"))).toMatchObject({ traces: 1, spans: 2 });

    // The inbox: its count (loader and the sidebar's route), its rows; the agents list: the agent-less rows.
    const counts = await inboxCounts(db, ADMIN_CAN);
    expect(counts.unmapped_traces).toBe((counts0.unmapped_traces ?? 0) + 1);
    const route = await call(server.baseUrl, admin, "GET", "/api/console/inbox");
    expect(route.status).toBe(200);
    expect(route.json.unmapped_traces).toBe(counts.unmapped_traces);
    const inbox = await loadInboxPage(db, {}, ADMIN_CAN);
    const group = inbox.groups.find((g) => g.kind === "unmapped_traces")!;
    expect(group.count).toBe(counts.unmapped_traces);
    expect(group.rows.find((x) => x.detail.startsWith("no agent invocation"))).toMatchObject({
      title: "1 trace made no runs",
      detail: expect.stringContaining('sample span "chat gpt-test" with gen_ai.input.messages, gen_ai.operation.name'),
      target: { type: "agent", agentId: "" },
    });
    const agents = await loadAgentsPage(db, {});
    expect(agents.unmapped.map((u) => u.reason)).toEqual(expect.arrayContaining([row.reason]));
    const home = await call(server.baseUrl, admin, "GET", "/");
    expect(home.text).toContain("Traces that made no runs");
    expect(home.text).not.toContain("4242");
  });

  it("counts a trace whose runs the ingestion refuses under its agent: its page and its inbox scope show it; deleting the agent removes it", async () => {
    const agentId = "otel-unmapped-shop";
    // A run the ingestion refuses (a tool name over 256 characters) and one it stores.
    const refused = recordAgentTrace({ agentId, query: PRIVATE, user: "acct-u1", thread: "t-u1", calls: [{ tool: "x".repeat(300), args: { q: PRIVATE } }], status: "ok" });
    const fine = recordAgentTrace({ agentId, query: "Track order A2", user: "acct-u2", thread: "t-u2", calls: [{ tool: "track_order", args: { order_id: "A2" }, result: "shipped" }], status: "ok" });
    expect((await call(server.baseUrl, key, "POST", PATH, jsonExport([...refused, ...fine]).toString())).json).toEqual({});
    await waitFor(async () => (await unmapped()).some((u) => u.agent_id === agentId), 30_000, server.output);
    const row = (await unmapped()).find((u) => u.agent_id === agentId)!;
    expect(row).toMatchObject({ reason: "the ingestion refused its runs: invalid /steps/0/tool", traces: 1, sample_span_name: `invoke_agent ${agentId}` });
    expect(row.sample_attribute_keys).toEqual(["gen_ai.agent.id", "gen_ai.conversation.id", "gen_ai.operation.name", "user.id"]);
    expect(JSON.stringify(row)).not.toMatch(/4242|alice|acct-u1/);
    expect((await server.sql.query(`SELECT count(*)::int AS n FROM workflows WHERE agent_id = $1`, [agentId])).rows[0].n).toBe(1);

    // The agent's page and the inbox kept to the agent.
    const page = await loadAgentPage(db, agentId, {});
    expect(page!.unmapped).toEqual([expect.objectContaining({ agentId, agentKnown: true, reason: row.reason, traces: 1, sampleSpanName: `invoke_agent ${agentId}` })]);
    expect(await inboxCounts(db, ADMIN_CAN, agentId)).toMatchObject({ unmapped_traces: 1 });
    const html = await call(server.baseUrl, admin, "GET", `/agents/${agentId}`);
    expect(html.text).toContain("Traces received that made no runs");
    expect(html.text).toContain("invalid /steps/0/tool");
    const inbox = await loadInboxPage(db, { agent: agentId }, ADMIN_CAN);
    expect(inbox.groups.find((g) => g.kind === "unmapped_traces")!.rows).toEqual([
      expect.objectContaining({ title: `1 trace of ${agentId} made no runs`, target: { type: "agent", agentId, anchor: "unmapped-traces" } }),
    ]);

    // Deleting the agent removes its rows (the others stay).
    const others = (await unmapped()).filter((u) => u.agent_id !== agentId).length;
    expect((await call(server.baseUrl, key, "DELETE", `/api/v1/agents/${agentId}`, { reason: "test" })).status).toBe(202);
    expect(await inboxCounts(db, ADMIN_CAN, agentId)).toMatchObject({ unmapped_traces: 0 });
    await waitFor(async () => (await call(server.baseUrl, key, "GET", `/api/v1/agents/${agentId}`)).status === 404, 60_000, server.output);
    expect((await unmapped()).filter((u) => u.agent_id === agentId)).toEqual([]);
    expect((await unmapped()).length).toBe(others);
  });
});
