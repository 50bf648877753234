// OTLP decoding and the span → run mapping (lib/otlp): exports made by the OpenTelemetry SDK's
// own serializers decode the same from protobuf and JSON; spans missing what their role needs
// are counted, not staged; runs take the shape README "OpenTelemetry ingestion" documents.
import { describe, expect, it } from "vitest";
import { context, trace, SpanStatusCode } from "@opentelemetry/api";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { decodeJson, decodeProtobuf } from "@/lib/otlp/decode";
import { runsOfTrace } from "@/lib/otlp/map";
import { jsonExport, protobufExport, recordAgentTrace } from "../helpers/otlp";

const refund = recordAgentTrace({
  agentName: "Shop Bot",
  query: "Refund order A1",
  user: "acct-1",
  thread: "t-1",
  calls: [
    { tool: "lookup_order", args: { order_id: "A1" }, result: { status: "paid" } },
    { tool: "issue_refund", args: { order_id: "A1" }, error: { type: "TimeoutError", message: "slow", asException: true } },
  ],
  status: "error",
  skills: ["sk_1"],
});

describe("OTLP decoding", () => {
  it("reads the same spans from the SDK's protobuf and JSON exports", () => {
    const fromProto = decodeProtobuf(protobufExport(refund));
    expect(fromProto.spans).toHaveLength(refund.length);
    expect(decodeJson(jsonExport(refund))).toEqual(fromProto);
  });

  it("refuses bodies that are not an export, and counts unusable spans", () => {
    expect(() => decodeProtobuf(Buffer.from([0x0a, 0xff, 0xff, 0xff]))).toThrow(/protobuf/);
    expect(() => decodeJson(Buffer.from("{not json"))).toThrow(/JSON/);
    expect(() => decodeJson(Buffer.from('{"resourceSpans": 7}'))).toThrow(/ExportTraceServiceRequest/);
    const body = JSON.parse(jsonExport(refund).toString());
    const spans = body.resourceSpans[0].scopeSpans[0].spans;
    spans[0].traceId = "not-hex";
    const tool = spans.find((s: { name: string }) => s.name.startsWith("execute_tool"));
    tool.attributes = tool.attributes.filter((a: { key: string }) => a.key !== "gen_ai.tool.name");
    spans[spans.length - 1].startTimeUnixNano = "-1"; // the staging table's bigint holds positive int64 nanoseconds only
    const refundSpan = spans.find((s: { name: string }) => s.name === "execute_tool issue_refund");
    refundSpan.status = { code: 1e30 }; // an unknown status code is unset, not refused
    const decoded = decodeJson(Buffer.from(JSON.stringify(body)));
    expect(decoded.rejected).toBe(3);
    expect(decoded.spans).toHaveLength(refund.length - 3);
    expect(decoded.spans.find((s) => s.name === "execute_tool issue_refund")?.statusCode).toBe(0);
    expect(decoded.reasons).toEqual(expect.arrayContaining([expect.stringMatching(/traceId/), expect.stringMatching(/startTimeUnixNano/), expect.stringMatching(/gen_ai\.tool\.name/)]));
  });
});

describe("span → run mapping", () => {
  it("maps an invocation to a run with steps, error class, query, user, thread, outcome and messages", () => {
    const [run] = runsOfTrace(decodeProtobuf(protobufExport(refund)).spans);
    const root = refund.find((s) => !s.parentSpanContext)!;
    expect(run.agent).toEqual({ id: "Shop-Bot", name: "Shop Bot" });
    expect(run.workflow).toMatchObject({
      workflow_id: `otel:${root.spanContext().traceId}:${root.spanContext().spanId}`,
      root_trace_id: root.spanContext().traceId,
      query: "Refund order A1",
      user_id: "acct-1",
      thread_id: "t-1",
      outcome: "failure",
      skills_activated: ["sk_1"],
      answer: "Done.",
    });
    expect(run.workflow.steps).toEqual([
      expect.objectContaining({ tool: "lookup_order", arguments: { order_id: "A1" }, result: { status: "paid" } }),
      expect.objectContaining({ tool: "issue_refund", error: { type: "TimeoutError", message: "slow" } }),
    ]);
    expect(run.tools.map((t) => t.name)).toEqual(["lookup_order", "issue_refund"]);
    expect(run.messages.map((m) => [m.role, m.text])).toEqual([["user", "Refund order A1"], ["assistant", "Done."]]);
  });

  it("proctor.outcome overrides the status; the older event form gives the query", () => {
    const spans = recordAgentTrace({ agentId: "shop", query: "Where is B2?", calls: [], status: "error", outcome: "success", legacyPrompt: true });
    const [run] = runsOfTrace(decodeProtobuf(protobufExport(spans)).spans);
    expect(run.workflow).toMatchObject({ outcome: "success", query: "Where is B2?", steps: [] });
  });

  it("without invoke_agent, a root span with execute_tool descendants is the run (agent from service.name)", () => {
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer("t");
    const root = tracer.startSpan("POST /refund", { startTime: 1000 });
    const under = trace.setSpan(context.active(), root);
    const step = tracer.startSpan("execute_tool lookup", { startTime: 1001, attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "lookup" } }, under);
    step.end(1002);
    tracer.startSpan("GET /health", { startTime: 1003 }).end(1004); // another root, no tools: no run
    root.end(1005);
    const runs = runsOfTrace(decodeProtobuf(protobufExport(exporter.getFinishedSpans())).spans);
    expect(runs).toHaveLength(1);
    expect(runs[0].agent.id).toMatch(/^unknown_service/);
    expect(runs[0].workflow.steps.map((s) => s.tool)).toEqual(["lookup"]);
    expect(runs[0].workflow.outcome).toBeUndefined();
  });
});

/**
 * Spans recorded with the OpenTelemetry SDK: the first is the root, the others its children unless
 * `parent` names another (an index). Times are milliseconds after T0, an epoch time: the SDK takes a
 * number below performance.now() for a performance timestamp and shifts each span by its own offset.
 */
const T0 = Date.UTC(2026, 10, 30, 10, 0, 0);
type SpanSpec = { name: string; attributes?: Record<string, string | number | string[]>; start: number; end: number; error?: string; parent?: number };
function recordTree(specs: SpanSpec[], service = "tree-service") {
  const exporter = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({ resource: resourceFromAttributes({ "service.name": service }), spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer("t");
  const made: ReturnType<typeof tracer.startSpan>[] = [];
  for (const spec of specs) {
    const parent = made.length ? made[spec.parent ?? 0] : undefined;
    made.push(tracer.startSpan(spec.name, { startTime: T0 + spec.start, attributes: spec.attributes }, parent ? trace.setSpan(context.active(), parent) : context.active()));
  }
  specs.forEach((spec, i) => {
    if (spec.error) made[i].setStatus({ code: SpanStatusCode.ERROR, message: spec.error });
    made[i].end(T0 + spec.end);
  });
  return decodeProtobuf(protobufExport(exporter.getFinishedSpans())).spans;
}

describe("conventions", () => {
  it("a status OK on the invocation is no report: the engine's rules decide", () => {
    const spans = recordAgentTrace({ agentId: "shop", query: "Refund A1", calls: [{ tool: "issue_refund", args: { order_id: "A1" }, error: { type: "Error", message: "down" } }], status: "ok" });
    const [run] = runsOfTrace(decodeProtobuf(protobufExport(spans)).spans);
    expect(run.workflow.outcome).toBeUndefined();
    expect(run.workflow.steps.at(-1)?.error).toEqual({ type: "Error", message: "down" });
  });

  it("orders tool calls that start in one millisecond by the model's call order, not by end time or span id", () => {
    const chat = (calls: string[][], prior: string[][]) => ({
      "gen_ai.operation.name": "chat",
      "gen_ai.input.messages": JSON.stringify([{ role: "user", parts: [{ type: "text", content: "Refund A1" }] }, ...prior.map(([id, name]) => ({ role: "assistant", parts: [{ type: "tool_call", id, name }] }))]),
      "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: calls.map(([id, name]) => ({ type: "tool_call", id, name, arguments: { order_id: "A1" } })) }]),
    });
    const tool = (id: string, name: string) => ({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name, "gen_ai.tool.call.id": id, "gen_ai.tool.call.arguments": '{"order_id":"A1"}' });
    const spans = recordTree([
      { name: "invoke_agent shop", attributes: { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "shop" }, start: 1000, end: 1010 },
      // Both model calls and both tool calls start in the same millisecond; the later ones end first.
      { name: "chat m", attributes: chat([["c1", "lookup_order"]], []), start: 1001, end: 1001.9 },
      { name: "chat m", attributes: chat([["c2", "issue_refund"]], [["c1", "lookup_order"]]), start: 1001, end: 1001.2 },
      { name: "execute_tool lookup_order", attributes: tool("c1", "lookup_order"), start: 1001, end: 1001.8 },
      { name: "execute_tool issue_refund", attributes: tool("c2", "issue_refund"), start: 1001, end: 1001.3 },
    ]);
    const [run] = runsOfTrace(spans);
    expect(run.workflow.steps.map((s) => s.tool)).toEqual(["lookup_order", "issue_refund"]);
  });

  it("reads Pydantic AI's spans without an operation name: its agent run and tool spans named by gen_ai.tool.name", () => {
    const spans = recordTree([
      { name: "agent run", attributes: { agent_name: "support", "gen_ai.agent.name": "support", final_result: "Refunded A7.", "gen_ai.conversation.id": "t-7", "user.id": "acct-7" }, start: 1000, end: 1020 },
      {
        name: "chat gpt-4o",
        attributes: { "gen_ai.operation.name": "chat", "gen_ai.input.messages": JSON.stringify([{ role: "user", parts: [{ type: "text", content: "Refund A7" }] }]) },
        start: 1001,
        end: 1002,
      },
      { name: "running tool", attributes: { "gen_ai.tool.name": "lookup_order", "gen_ai.tool.call.id": "p1", tool_arguments: '{"order_id":"A7"}', tool_response: '{"status":"paid"}' }, start: 1003, end: 1004 },
      { name: "execute_tool issue_refund", attributes: { "gen_ai.tool.name": "issue_refund", "gen_ai.tool.call.arguments": '{"order_id":"A7"}' }, start: 1005, end: 1006, error: "ValueError: refunds are closed" },
    ]);
    const [run] = runsOfTrace(spans);
    expect(run.agent.id).toBe("support");
    expect(run.workflow).toMatchObject({ query: "Refund A7", answer: "Refunded A7.", user_id: "acct-7", thread_id: "t-7" });
    expect(run.workflow.steps.map(({ timestamp: _t, ...s }) => s)).toEqual([
      { tool: "lookup_order", arguments: { order_id: "A7" }, result: { status: "paid" } },
      { tool: "issue_refund", arguments: { order_id: "A7" }, error: { type: "ValueError", message: "refunds are closed" } },
    ]);
  });

  it("one priority decides for a span carrying several conventions: GenAI before OpenInference before AI SDK", () => {
    const spans = recordTree([
      { name: "root", attributes: { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "genai-agent", "openinference.span.kind": "CHAIN", "ai.operationId": "ai.toolCall" }, start: 1000, end: 1010 },
      {
        name: "both",
        attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "from_genai", "openinference.span.kind": "TOOL", "tool.name": "from_openinference", "ai.operationId": "ai.toolCall", "ai.toolCall.name": "from_ai_sdk" },
        start: 1001,
        end: 1002,
      },
      { name: "oi", attributes: { "openinference.span.kind": "TOOL", "tool.name": "from_openinference", "ai.operationId": "ai.toolCall", "ai.toolCall.name": "from_ai_sdk" }, start: 1003, end: 1004 },
    ]);
    const [run] = runsOfTrace(spans);
    expect(run.agent.id).toBe("genai-agent");
    expect(run.workflow.steps.map((s) => s.tool)).toEqual(["from_genai", "from_openinference"]);
  });

  it("a framework's default agent id names no agent: the agent name does", () => {
    const strands = recordTree([{ name: "invoke_agent shop", attributes: { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.id": "agent", "gen_ai.agent.name": "shop-bot" }, start: 1000, end: 1001 }]);
    expect(runsOfTrace(strands)[0].agent).toEqual({ id: "shop-bot", name: "shop-bot" });
    const explicit = recordTree([{ name: "invoke_agent shop", attributes: { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.id": "shop-v2", "gen_ai.agent.name": "shop-bot" }, start: 1000, end: 1001 }]);
    expect(runsOfTrace(explicit)[0].agent).toEqual({ id: "shop-v2", name: "shop-bot" });
    const unnamed = recordTree([{ name: "agent run", attributes: { "gen_ai.agent.name": "agent", agent_name: "agent" }, start: 1000, end: 1001 }], "billing-service");
    expect(runsOfTrace(unnamed)[0].agent.id).toBe("billing-service");
  });

  it("a Mastra workflow (invoke_workflow) with tool calls of its own is a run named after the workflow", () => {
    const spans = recordTree([
      { name: "invoke_workflow refund-flow", attributes: { "gen_ai.operation.name": "invoke_workflow", "mastra.metadata.resourceId": "acct-9", "gen_ai.conversation.id": "t-9" }, start: 1000, end: 1010 },
      { name: "execute_tool lookup_order", attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "lookup_order", "gen_ai.tool.call.arguments": '{"order_id":"A9"}' }, start: 1001, end: 1002 },
    ]);
    const [run] = runsOfTrace(spans);
    expect(run.agent.id).toBe("refund-flow");
    expect(run.workflow).toMatchObject({ user_id: "acct-9", thread_id: "t-9", steps: [expect.objectContaining({ tool: "lookup_order", arguments: { order_id: "A9" } })] });
  });

  it("an invocation that only wraps other invocations makes no run of its own", () => {
    const spans = recordTree([
      { name: "Agent workflow", attributes: { "openinference.span.kind": "AGENT" }, start: 1000, end: 1010 },
      { name: "triage", attributes: { "openinference.span.kind": "AGENT", "graph.node.id": "triage" }, start: 1001, end: 1009, parent: 0 },
      { name: "lookup_order", attributes: { "openinference.span.kind": "TOOL", "tool.name": "lookup_order", "input.value": '{"order_id":"A1"}' }, start: 1002, end: 1003, parent: 1 },
    ]);
    const runs = runsOfTrace(spans);
    expect(runs.map((r) => [r.agent.id, r.workflow.steps.map((s) => s.tool)])).toEqual([["triage", ["lookup_order"]]]);
  });
});
