// An agent loop instrumented with OpenTelemetry, exporting GenAI spans (invoke_agent, chat,
// execute_tool) over OTLP/HTTP protobuf to a Proctor console: no Proctor code, only an exporter
// endpoint. The "model" is a fixed planner so the example runs offline; swap in a real LLM call
// inside chat() and keep the span attributes.
//   CONSOLE_URL=http://localhost:3000 PROCTOR_API_KEY=pk_… npx tsx examples/otel-agent/index.ts
// (or set OTEL_EXPORTER_OTLP_ENDPOINT=<console>/api/v1/otlp and OTEL_EXPORTER_OTLP_HEADERS yourself).
import { SpanStatusCode, trace, type Span } from "@opentelemetry/api";
import { BatchSpanProcessor, NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";

const consoleUrl = (process.env.CONSOLE_URL ?? "http://localhost:3000").replace(/\/+$/, "");
const apiKey = process.env.PROCTOR_API_KEY;
if (!apiKey && !process.env.OTEL_EXPORTER_OTLP_HEADERS) {
  console.error("Set PROCTOR_API_KEY (an API key with the ingest scope) and CONSOLE_URL.");
  process.exit(1);
}
const AGENT_ID = process.env.AGENT_ID ?? "otel-shop-agent";

const exporter = new OTLPTraceExporter(
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT ? {} : { url: `${consoleUrl}/api/v1/otlp/v1/traces`, headers: { Authorization: `Bearer ${apiKey}` } },
);
const provider = new NodeTracerProvider({
  resource: resourceFromAttributes({ "service.name": "otel-shop-example" }),
  spanProcessors: [new BatchSpanProcessor(exporter)],
});
provider.register(); // async context: spans started inside startActiveSpan nest under it
const tracer = trace.getTracer("proctor-example-otel-agent");

// ---- the agent's tools
type Args = Record<string, string>;
const orders: Record<string, { status: string; amount: number }> = { A1: { status: "paid", amount: 12.5 }, B2: { status: "shipped", amount: 30 } };
const TOOLS: Record<string, { description: string; run: (a: Args) => unknown }> = {
  lookup_order: { description: "Find an order by id", run: (a) => orders[a.order_id] ?? { error: "no such order" } },
  issue_refund: {
    description: "Refund a paid order",
    run: (a) => {
      if (orders[a.order_id]?.status !== "paid") throw Object.assign(new Error("only paid orders can be refunded"), { name: "RefundRefused" });
      return { accepted: true };
    },
  },
  track_package: { description: "Where a shipped order is", run: (a) => ({ order_id: a.order_id, location: "Leipzig hub" }) },
};
const definitions = Object.entries(TOOLS).map(([name, t]) => ({ type: "function", name, description: t.description, parameters: { type: "object", properties: { order_id: { type: "string" } } } }));

// ---- the "model": plans tool calls for a request, then answers
function plan(query: string): { tool: string; args: Args }[] {
  const order = /\b([A-Z]\d)\b/.exec(query)?.[1] ?? "A1";
  if (/refund/i.test(query)) return [{ tool: "lookup_order", args: { order_id: order } }, { tool: "issue_refund", args: { order_id: order } }];
  if (/where|track/i.test(query)) return [{ tool: "lookup_order", args: { order_id: order } }, { tool: "track_package", args: { order_id: order } }];
  return [{ tool: "lookup_order", args: { order_id: order } }];
}

const text = (role: string, content: string) => ({ role, parts: [{ type: "text", content }] });

function chat(messages: object[], reply: object): void {
  tracer.startActiveSpan("chat example-model", { attributes: { "gen_ai.operation.name": "chat", "gen_ai.request.model": "example-model" } }, (span) => {
    span.setAttribute("gen_ai.tool.definitions", JSON.stringify(definitions));
    span.setAttribute("gen_ai.input.messages", JSON.stringify(messages));
    span.setAttribute("gen_ai.output.messages", JSON.stringify([reply]));
    span.end();
  });
}

function callTool(tool: string, args: Args): { ok: boolean; result: unknown } {
  return tracer.startActiveSpan(`execute_tool ${tool}`, {
    attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": tool, "gen_ai.tool.description": TOOLS[tool].description, "gen_ai.tool.call.arguments": JSON.stringify(args) },
  }, (span: Span) => {
    try {
      const result = TOOLS[tool].run(args);
      span.setAttribute("gen_ai.tool.call.result", JSON.stringify(result));
      return { ok: true, result };
    } catch (e) {
      const err = e as Error;
      span.recordException(err);
      span.setAttribute("error.type", err.name);
      span.setStatus({ code: SpanStatusCode.ERROR, message: err.message });
      return { ok: false, result: { error: err.message } };
    } finally {
      span.end();
    }
  });
}

/** One request: an invoke_agent span around chat → tools → chat. */
function handle(query: string, userId: string, threadId: string): string {
  return tracer.startActiveSpan(`invoke_agent ${AGENT_ID}`, {
    attributes: { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.id": AGENT_ID, "gen_ai.agent.name": "Shop helper (OpenTelemetry example)", "user.id": userId, "gen_ai.conversation.id": threadId },
  }, (agent) => {
    const history: object[] = [text("system", "You help shop customers."), text("user", query)];
    const calls = plan(query);
    chat(history, { role: "assistant", parts: calls.map((c) => ({ type: "tool_call", name: c.tool, arguments: c.args })) });
    const outcomes = calls.map((c) => callTool(c.tool, c.args));
    const failed = outcomes.some((o) => !o.ok);
    const answer = failed ? "Sorry, I could not finish that." : `Done: ${JSON.stringify(outcomes[outcomes.length - 1].result)}`;
    chat([...history, ...outcomes.map((o) => ({ role: "tool", parts: [{ type: "tool_call_response", response: o.result }] }))], text("assistant", answer));
    agent.setStatus({ code: failed ? SpanStatusCode.ERROR : SpanStatusCode.OK });
    agent.end();
    return `${agent.spanContext().traceId}:${agent.spanContext().spanId}`;
  });
}

const requests: [string, string, string][] = [
  ["Please refund order A1", "acct-ex-1", "thread-ex-1"],
  ["Where is my order B2?", "acct-ex-2", "thread-ex-2"],
  ["Refund order B2 now", "acct-ex-2", "thread-ex-2"],
];
for (const [query, user, thread] of requests) console.log(`run otel:${handle(query, user, thread)}`);
await provider.shutdown(); // flushes the batch to the console
console.log(`exported ${requests.length} agent invocations to ${process.env.OTEL_EXPORTER_OTLP_ENDPOINT ?? consoleUrl}`);
