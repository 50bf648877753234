// OTLP decoding and the span → run mapping (lib/otlp): exports made by the OpenTelemetry SDK's
// own serializers decode the same from protobuf and JSON; spans missing what their role needs
// are counted, not staged; runs take the shape README "OpenTelemetry ingestion" documents.
import { describe, expect, it } from "vitest";
import { context, trace } from "@opentelemetry/api";
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
