// Records the Strands Agents TypeScript SDK's own OpenTelemetry spans for the shop agent's 30
// scripted runs. The SDK's tracer does everything: this file only registers a NodeTracerProvider
// (the SDK's documented "your own provider" setup) whose exporter is the OTLP/protobuf exporter
// pointed at the loopback receiver, and drives Agent.invoke() with a scripted Model subclass.
//
//
// `npm run record` runs it twice: once in the SDK's default conventions, once with
// OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental, the SDK's switch to the latest
// experimental GenAI conventions (read by its Tracer, telemetry/tracer.js).
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import {
  Agent,
  Model,
  ModelContentBlockDeltaEvent,
  ModelContentBlockStartEvent,
  ModelContentBlockStopEvent,
  ModelMessageStartEvent,
  ModelMessageStopEvent,
  ModelMetadataEvent,
  SessionManager,
  tool,
} from "@strands-agents/sdk";
import { InMemoryStorage } from "@strands-agents/sdk/storage";
import type { BaseModelConfig, Message, ModelStreamEvent, StreamOptions } from "@strands-agents/sdk";
import { scenario, toolResult, TOOLS } from "../common/scenario.ts";
import type { ScenarioRun, ToolCall } from "../common/scenario.ts";
import { installedVersions, startReceiver, writeFixture } from "../common/receiver.ts";

// One recorder, two fixtures: the SDK's default conventions (`strands`) and, with
// OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental, its latest-experimental ones (`strands-latest`).
const latest = (process.env.OTEL_SEMCONV_STABILITY_OPT_IN ?? "").split(",").includes("gen_ai_latest_experimental");
const FIXTURE = latest ? "strands-latest" : "strands";
const SERVICE_NAME = "shop-service";

/**
 * A scripted model: at model step k (k = the number of assistant messages already in the
 * conversation) it streams run.script[k] as a toolUse block, and after the script it streams
 * run.answer as text. Token usage is a fixed function of the step so spans carry usage.
 */
class ScriptedModel extends Model<BaseModelConfig> {
  private config: BaseModelConfig = { modelId: "scripted-shop-model" };
  private readonly run: ScenarioRun;
  constructor(run: ScenarioRun) {
    super();
    this.run = run;
  }
  updateConfig(modelConfig: BaseModelConfig): void {
    this.config = { ...this.config, ...modelConfig };
  }
  getConfig(): BaseModelConfig {
    return this.config;
  }
  async *stream(messages: Message[], _options?: StreamOptions): AsyncIterable<ModelStreamEvent> {
    const step = messages.filter((m) => m.role === "assistant").length;
    const call: ToolCall | undefined = this.run.script[step];
    yield new ModelMessageStartEvent({ type: "modelMessageStartEvent", role: "assistant" });
    if (call) {
      yield new ModelContentBlockStartEvent({
        type: "modelContentBlockStartEvent",
        start: { type: "toolUseStart", name: call.tool, toolUseId: `tooluse_${String(this.run.index).padStart(2, "0")}_${step}` },
      });
      yield new ModelContentBlockDeltaEvent({ type: "modelContentBlockDeltaEvent", delta: { type: "toolUseInputDelta", input: JSON.stringify(call.arguments) } });
      yield new ModelContentBlockStopEvent({ type: "modelContentBlockStopEvent" });
      yield new ModelMessageStopEvent({ type: "modelMessageStopEvent", stopReason: "toolUse" });
    } else {
      yield new ModelContentBlockStartEvent({ type: "modelContentBlockStartEvent" });
      yield new ModelContentBlockDeltaEvent({ type: "modelContentBlockDeltaEvent", delta: { type: "textDelta", text: this.run.answer } });
      yield new ModelContentBlockStopEvent({ type: "modelContentBlockStopEvent" });
      yield new ModelMessageStopEvent({ type: "modelMessageStopEvent", stopReason: "endTurn" });
    }
    const inputTokens = 100 + 40 * step;
    yield new ModelMetadataEvent({
      type: "modelMetadataEvent",
      usage: { inputTokens, outputTokens: 20, totalTokens: inputTokens + 20 },
      metrics: { latencyMs: 5 },
    });
  }
}

/** The shop's three tools as Strands function tools; issue_refund throws in refund_fail runs. */
function shopTools(run: ScenarioRun) {
  return (Object.keys(TOOLS) as ToolCall["tool"][]).map((name) =>
    tool({
      name,
      description: TOOLS[name].description,
      inputSchema: TOOLS[name].parameters as never,
      callback: (input: unknown) => toolResult(run.kind, { tool: name, arguments: input as Record<string, unknown> }) as never,
    }),
  );
}

const receiver = await startReceiver();
const provider = new NodeTracerProvider({
  resource: resourceFromAttributes({ "service.name": SERVICE_NAME }),
  spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: receiver.endpoint }))],
});
provider.register();

const sessions = new InMemoryStorage();
for (const run of scenario) {
  const agent = new Agent({
    name: `shop-${FIXTURE}`,
    model: new ScriptedModel(run),
    tools: shopTools(run),
    systemPrompt: "You are the shop's support agent. Use the tools to answer.",
    printer: false,
    // The Strands way: a session manager keyed by the conversation, and the observability
    // backend's session/user keys as trace attributes (these are what reach the spans).
    sessionManager: new SessionManager({ sessionId: run.thread, storage: sessions }),
    traceAttributes: { "session.id": run.thread, "user.id": run.account },
  });
  const result = await agent.invoke(run.query);
  const text = result.toString().trim();
  if (text !== run.answer) throw new Error(`run ${run.index}: answered ${JSON.stringify(text)}, expected ${JSON.stringify(run.answer)}`);
}

await provider.forceFlush();
await provider.shutdown();
await receiver.close();

const dir = writeFixture(
  FIXTURE,
  {
    packages: installedVersions(
      import.meta.dirname,
      [
        "@strands-agents/sdk",
        "@opentelemetry/api",
        "@opentelemetry/sdk-trace-node",
        "@opentelemetry/sdk-trace-base",
        "@opentelemetry/resources",
        "@opentelemetry/exporter-trace-otlp-proto",
        "zod",
      ],
    ),
    emitted_by: "framework",
    convention: latest
      ? "Strands Agents' OpenTelemetry GenAI semantic conventions, latest-experimental mode (OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental): gen_ai.provider.name, messages in gen_ai.client.inference.operation.details events, gen_ai.tool.call.arguments/result attributes"
      : "Strands Agents' OpenTelemetry GenAI semantic conventions, default mode: gen_ai.system, per-message span events (gen_ai.user.message, gen_ai.assistant.message, gen_ai.tool.message, gen_ai.choice, gen_ai.system.message)",
    env: latest ? { OTEL_SEMCONV_STABILITY_OPT_IN: process.env.OTEL_SEMCONV_STABILITY_OPT_IN } : {},
    exporter: "OTLPTraceExporter from @opentelemetry/exporter-trace-otlp-proto (application/x-protobuf) behind a BatchSpanProcessor",
    resource: { "service.name": SERVICE_NAME },
    what_the_user_must_set: [
      "Register an OpenTelemetry tracer provider with an OTLP exporter pointed at Proctor (NodeTracerProvider + provider.register(), or setupTracer({ exporters: { otlp: true } }) from @strands-agents/sdk/telemetry with OTEL_EXPORTER_OTLP_ENDPOINT)",
      `new Agent({ name: "shop-${FIXTURE}", traceAttributes: { "session.id": <thread>, "user.id": <account> } }): only traceAttributes reach the spans (the invoke_agent span only); the SessionManager's sessionId does not`,
      "gen_ai.agent.id is left at the SDK default 'agent' (Agent config `id` would set it)",
      ...(latest ? ["OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental in the agent process's environment"] : []),
    ],
    scripted_model: "Model subclass streaming toolUse blocks per run.script (toolUseId tooluse_<run>_<step>), then run.answer as text, with fixed usage",
  },
  receiver.exports,
);
console.log(`${receiver.exports.length} exports → ${dir}`);
