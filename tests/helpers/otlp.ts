// OpenTelemetry GenAI traces for tests, recorded with the OpenTelemetry SDK itself and encoded
// with its own OTLP serializers (protobuf and JSON), never by hand.
import { context, trace, SpanStatusCode, type Span } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { JsonTraceSerializer, ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import { OTLP_TRACES_PATH } from "../../lib/api/otlp";
import { ADMIN_KEY, SHARED_SERVERS, waitFor, type TestServer } from "./server";

export type ToolCall = { tool: string; args: Record<string, unknown>; result?: unknown; error?: { type: string; message: string; asException?: boolean } };

export type AgentRequest = {
  service?: string;
  agentId?: string;
  agentName?: string;
  query: string;
  user?: string;
  thread?: string;
  calls: ToolCall[];
  status?: "ok" | "error";
  outcome?: string;
  skills?: string[];
  answer?: string;
  /** Start of the invocation, ms since the epoch. */
  at?: number;
  /** The older event form of the prompt (gen_ai.user.message) instead of gen_ai.input.messages. */
  legacyPrompt?: boolean;
};

/** Records one agent invocation as GenAI spans (invoke_agent → chat, execute_tool…, chat); returns the ended spans, children first. */
export function recordAgentTrace(req: AgentRequest): ReadableSpan[] {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": req.service ?? "otel-test-agent" }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer("proctor-tests");
  let t = req.at ?? Date.UTC(2026, 10, 30, 10, 0, 0);
  const tick = () => (t += 10);
  const under = (parent: Span) => trace.setSpan(context.active(), parent);

  const root = tracer.startSpan(`invoke_agent ${req.agentName ?? req.agentId ?? ""}`.trim(), {
    startTime: t,
    attributes: {
      "gen_ai.operation.name": "invoke_agent",
      ...(req.agentId ? { "gen_ai.agent.id": req.agentId } : {}),
      ...(req.agentName ? { "gen_ai.agent.name": req.agentName } : {}),
      ...(req.user ? { "user.id": req.user } : {}),
      ...(req.thread ? { "gen_ai.conversation.id": req.thread } : {}),
      ...(req.outcome ? { "proctor.outcome": req.outcome } : {}),
      ...(req.skills ? { "proctor.skills_activated": req.skills } : {}),
    },
  });
  const chat = (input: object[] | null, output: object[], legacy?: string) => {
    const s = tracer.startSpan("chat gpt-test", { startTime: tick(), attributes: { "gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-test" } }, under(root));
    if (input) s.setAttribute("gen_ai.input.messages", JSON.stringify(input));
    if (legacy !== undefined) s.addEvent("gen_ai.user.message", { content: legacy }, tick());
    s.setAttribute("gen_ai.output.messages", JSON.stringify(output));
    s.end(tick());
  };
  const userMessage = { role: "user", parts: [{ type: "text", content: req.query }] };
  chat(req.legacyPrompt ? null : [{ role: "system", parts: [{ type: "text", content: "You are a shop assistant." }] }, userMessage],
    [{ role: "assistant", parts: req.calls.map((c) => ({ type: "tool_call", name: c.tool, arguments: c.args })) }], req.legacyPrompt ? req.query : undefined);
  for (const c of req.calls) {
    const s = tracer.startSpan(`execute_tool ${c.tool}`, {
      startTime: tick(),
      attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": c.tool, "gen_ai.tool.description": `The ${c.tool} tool`, "gen_ai.tool.call.arguments": JSON.stringify(c.args) },
    }, under(root));
    if (c.result !== undefined) s.setAttribute("gen_ai.tool.call.result", JSON.stringify(c.result));
    if (c.error) {
      if (c.error.asException) s.recordException({ name: c.error.type, message: c.error.message }, tick());
      else s.setAttribute("error.type", c.error.type);
      s.setStatus({ code: SpanStatusCode.ERROR, message: c.error.message });
    }
    s.end(tick());
  }
  const answer = req.answer ?? "Done.";
  chat([userMessage], [{ role: "assistant", parts: [{ type: "text", content: answer }] }]);
  if (req.status === "error") root.setStatus({ code: SpanStatusCode.ERROR, message: "the agent failed" });
  if (req.status === "ok") root.setStatus({ code: SpanStatusCode.OK });
  root.end(tick());
  return exporter.getFinishedSpans();
}

export const protobufExport = (spans: ReadableSpan[]) => Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!);
export const jsonExport = (spans: ReadableSpan[]) => Buffer.from(JsonTraceSerializer.serializeRequest(spans)!);

/** A trace as two JSON exports, its root span alone in the second, as an exporter's batch boundary splits one. */
export function splitJsonExports(spans: ReadableSpan[]): [Buffer, Buffer] {
  const isRoot = (s: ReadableSpan) => !s.parentSpanContext;
  return [jsonExport(spans.filter((s) => !isRoot(s))), jsonExport(spans.filter(isRoot))];
}

/** POSTs an export to the console's OTLP route with the admin key, as JSON unless `protobuf`. */
export const postExport = (baseUrl: string, body: Buffer | string, opts: { protobuf?: boolean; headers?: Record<string, string> } = {}) =>
  fetch(baseUrl + OTLP_TRACES_PATH, {
    method: "POST",
    headers: { authorization: `Bearer ${ADMIN_KEY}`, "content-type": opts.protobuf ? "application/x-protobuf" : "application/json", ...opts.headers },
    body: typeof body === "string" ? body : new Uint8Array(body),
  });

/** The shared test server the OTLP files use: a short settle time (300 ms) before assembly. */
export const OTLP_SERVER_ENV = SHARED_SERVERS[0];

export const traceIdOf = (spans: readonly ReadableSpan[]) => spans[0].spanContext().traceId;

/** Whether the trace's assembly is over (its runs and their messages written). */
const traceAssembled = async (server: TestServer, traceId: string) =>
  (await server.sql.query(`SELECT 1 FROM otlp_traces WHERE trace_id = $1 AND assembled_at IS NOT NULL`, [traceId])).rowCount === 1;

/** Waits until the trace has made at least `runs` runs and its assembly is over (messages are written after runs). */
export const traceArrived = (server: TestServer, traceId: string, runs = 1) =>
  waitFor(
    async () =>
      (await server.sql.query(`SELECT count(*)::int AS n FROM workflows WHERE root_trace_id = $1`, [traceId])).rows[0].n >= runs &&
      (await traceAssembled(server, traceId)),
    30_000,
    server.output,
  );
