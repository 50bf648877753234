// OTLP exports that stopped or froze the server before its limits and iterative walks: a poisoned
// trace (tool arguments nested 5,000 deep), a trace 60 spans deep, an attribute of megabytes,
// and exports of more spans than the limits allow. For `npm run bench:hostile` and the fuzzer's
// corpus (./fuzz-inputs.ts); built from traces recorded with the OpenTelemetry SDK (./otlp.ts).
import { ExportTraceServiceRequest } from "../../lib/otlp/wire";
import { jsonExport, recordAgentTrace, type AgentRequest } from "./otlp";

type Attribute = { key: string; value: Record<string, unknown> };
export type JsonSpan = { name: string; spanId: string; parentSpanId?: string; traceId: string; attributes: Attribute[] };
export type OtlpJson = { resourceSpans: { resource?: unknown; scopeSpans: { scope?: unknown; spans: JsonSpan[] }[] }[] };

/** Tool arguments that made trace assembly throw `Maximum call stack size exceeded`. */
export const DEEP_ARGUMENTS = "[".repeat(5000) + "]".repeat(5000);

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");
export const spansOf = (body: OtlpJson) => body.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans));
/** The export of `req`'s trace as editable OTLP JSON. */
export const traceJson = (req: AgentRequest): OtlpJson => JSON.parse(jsonExport(recordAgentTrace(req)).toString());
const toolSpan = (body: OtlpJson) => spansOf(body).find((s) => s.name.startsWith("execute_tool"))!;
const setAttribute = (span: JsonSpan, key: string, value: Record<string, unknown>) => {
  span.attributes = [...span.attributes.filter((a) => a.key !== key), { key, value }];
};

/** One invocation of `agentId` calling `tool` once. */
export const agentRequest = (agentId: string, query: string, tool = "lookup_order"): AgentRequest => ({
  agentId,
  query,
  calls: [{ tool, args: { order_id: "A1" }, result: { status: "paid" } }],
  status: "ok",
});

/** A trace whose tool span's arguments nest 5,000 arrays deep (its model calls dropped: the run's arguments are the span's own). */
export function deepArgumentsTrace(agentId: string, query = "poisoned"): OtlpJson {
  const body = traceJson(agentRequest(agentId, query));
  for (const ss of body.resourceSpans.flatMap((rs) => rs.scopeSpans)) ss.spans = ss.spans.filter((s) => !s.name.startsWith("chat"));
  setAttribute(toolSpan(body), "gen_ai.tool.call.arguments", { stringValue: DEEP_ARGUMENTS });
  return body;
}

/** A trace `depth` spans deep: the tool call under depth − 1 plain spans under the invocation. */
export function tallTrace(agentId: string, depth = 60, query = "tall"): OtlpJson {
  const body = traceJson(agentRequest(agentId, query));
  const spans = body.resourceSpans[0].scopeSpans[0].spans;
  const root = spans.find((s) => !s.parentSpanId)!;
  let parent = root.spanId;
  for (let i = 0; i < depth - 1; i++) {
    const spanId = hex(0xabc000 + i, 16);
    spans.push({ ...root, name: `step ${i}`, spanId, parentSpanId: parent, attributes: [] });
    parent = spanId;
  }
  toolSpan(body).parentSpanId = parent;
  return body;
}

/** A trace whose tool result is one string attribute of `bytes` bytes. */
export function bigAttributeTrace(agentId: string, bytes: number, query = "big attribute"): OtlpJson {
  const body = traceJson(agentRequest(agentId, query));
  setAttribute(toolSpan(body), "gen_ai.tool.call.result", { stringValue: "x".repeat(bytes) });
  return body;
}

/** One export of all of `bodies`' spans. */
export const mergeExports = (...bodies: OtlpJson[]): OtlpJson => ({ resourceSpans: bodies.flatMap((b) => b.resourceSpans) });

/** `n` minimal spans in no convention (each its own trace), the shape of the export that exhausted the heap. */
export function minimalSpans(n: number): OtlpJson {
  const spans = Array.from({ length: n }, (_, i) => ({ traceId: hex(i + 1, 32), spanId: hex(i + 1, 16), name: "s", startTimeUnixNano: "1700000000000000000", attributes: [] }));
  return { resourceSpans: [{ scopeSpans: [{ spans }] }] };
}

/** The tools of filledExport's traces' agent. */
export const FILLED_TOOLS = ["lookup_order", "issue_refund", "notify", "t0", "t1", "t2", "t3", "t4", "t5", "t6"];

/**
 * GenAI traces of `agentId` (invoke_agent, two chats, seven tool calls: ten spans each) filling
 * `bytes` of `encode`d export with `traces` traces: the largest accepted exports, at the limits.
 */
export function filledExport(agentId: string, traces: number, bytes: number, encode: (spans: ReturnType<typeof recordAgentTrace>) => Buffer) {
  const record = (pad: number) =>
    Array.from({ length: traces }, (_, i) =>
      recordAgentTrace({
        agentId,
        query: `Please refund order ${i}`,
        calls: FILLED_TOOLS.slice(3).map((tool) => ({ tool, args: { order_id: String(i), note: "x".repeat(pad) }, result: { ok: true } })),
        status: "ok",
        at: Date.now() - 3_600_000 + i,
      }),
    ).flat();
  // The size grows linearly with the pad (the arguments appear in the tool spans and the chat's tool calls).
  const [empty, padded] = [encode(record(0)).length, encode(record(1000)).length];
  return encode(record(Math.max(0, Math.floor((1000 * (bytes - empty)) / (padded - empty)))));
}

/** The same export as OTLP protobuf (ids from hex to bytes). */
export function protobufOf(body: OtlpJson): Buffer {
  const bytes = (id?: string) => (id ? Buffer.from(id, "hex") : undefined);
  const copy = {
    resourceSpans: body.resourceSpans.map((rs) => ({
      ...rs,
      scopeSpans: rs.scopeSpans.map((ss) => ({ ...ss, spans: ss.spans.map((s) => ({ ...s, traceId: bytes(s.traceId), spanId: bytes(s.spanId), parentSpanId: bytes(s.parentSpanId) })) })),
    })),
  };
  return Buffer.from(ExportTraceServiceRequest.encode(ExportTraceServiceRequest.fromObject(copy)).finish());
}
