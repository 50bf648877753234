// Records the shop agent's 30 scripted runs through the AI SDK 7 (`ai@7`): `generateText` with
// three tools and `stopWhen: stepCountIs(5)`, its telemetry integration `@ai-sdk/otel`
// (`registerTelemetry(new OpenTelemetry(...))`, GenAI semantic-convention spans on the global
// tracer) exported by OpenTelemetry's OTLP/HTTP protobuf exporter to a loopback receiver. The
// account and thread travel as v7 runtime context (`runtimeContext` + `telemetry.includeRuntimeContext`,
// emitted because the integration is built with `runtimeContext: true`). The model is
// `MockLanguageModelV4` from `ai/test`: each
// doGenerate answers the run's next scripted tool call (counting the tool results already in the
// prompt), then the run's answer. Writes tests/fixtures/otlp/ai-sdk-7/.
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";
import { OpenTelemetry } from "@ai-sdk/otel";
import { generateText, registerTelemetry, stepCountIs, tool } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { z } from "zod";
import { installedVersions, startReceiver, writeFixture } from "../common/receiver.ts";
import { scenario, TOOLS, toolResult, type ScenarioRun, type ToolCall } from "../common/scenario.ts";

const FRAMEWORK = "ai-sdk-7";
const AGENT = `shop-${FRAMEWORK}`;
const SERVICE = "shop-service"; // the process's service.name, deliberately not the agent's name

const receiver = await startReceiver();
const provider = new NodeTracerProvider({
  resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: SERVICE }),
  spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: receiver.endpoint }), { maxExportBatchSize: 100 })],
});
provider.register();
registerTelemetry(new OpenTelemetry({ runtimeContext: true }));

/** The scripted model of one run: the next tool call of `run.script`, then `run.answer`. */
function scriptedModel(run: ScenarioRun): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    provider: "mock-provider",
    modelId: "mock-shop-model",
    doGenerate: async ({ prompt }) => {
      const done = prompt.filter((m) => m.role === "tool").flatMap((m) => m.content).filter((p) => p.type === "tool-result").length;
      const usage = {
        inputTokens: { total: 40 + 10 * done, noCache: 40 + 10 * done, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 12, text: 12, reasoning: undefined },
      };
      if (done < run.script.length) {
        const call = run.script[done];
        return {
          content: [{ type: "tool-call", toolCallId: `call-${run.index}-${done}`, toolName: call.tool, input: JSON.stringify(call.arguments) }],
          finishReason: { unified: "tool-calls", raw: "tool_calls" },
          usage,
          warnings: [],
        };
      }
      return { content: [{ type: "text", text: run.answer }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
    },
  });
}

function shopTools(run: ScenarioRun) {
  const exec = (name: ToolCall["tool"]) => async (input: Record<string, unknown>) => toolResult(run.kind, { tool: name, arguments: input });
  return {
    lookup_order: tool({ description: TOOLS.lookup_order.description, inputSchema: z.object({ order_id: z.string() }), execute: exec("lookup_order") }),
    track_shipment: tool({ description: TOOLS.track_shipment.description, inputSchema: z.object({ order_id: z.string() }), execute: exec("track_shipment") }),
    issue_refund: tool({
      description: TOOLS.issue_refund.description,
      inputSchema: z.object({ order_id: z.string(), amount: z.number() }),
      execute: exec("issue_refund"),
    }),
  };
}

for (const run of scenario) {
  const result = await generateText({
    model: scriptedModel(run),
    instructions: "You are the shop's support agent. Use the tools to answer.",
    prompt: run.query,
    tools: shopTools(run),
    stopWhen: stepCountIs(5),
    runtimeContext: { userId: run.account, sessionId: run.thread },
    telemetry: { functionId: AGENT, includeRuntimeContext: { userId: true, sessionId: true } },
  });
  if (result.text !== run.answer) throw new Error(`run ${run.index}: answered ${JSON.stringify(result.text)}`);
}

await provider.forceFlush();
await provider.shutdown();
await receiver.close();

const dir = writeFixture(
  FRAMEWORK,
  {
    packages: installedVersions(
      import.meta.dirname,
      [
        "ai",
        "@ai-sdk/otel",
        "@ai-sdk/provider",
        "@ai-sdk/provider-utils",
        "zod",
        "@opentelemetry/api",
        "@opentelemetry/sdk-trace-node",
        "@opentelemetry/sdk-trace-base",
        "@opentelemetry/sdk-trace",
        "@opentelemetry/exporter-trace-otlp-proto",
        "@opentelemetry/otlp-exporter-base",
        "@opentelemetry/otlp-transformer",
        "@opentelemetry/resources",
      ],
    ),
    convention:
      "AI SDK 7 @ai-sdk/otel (OpenTelemetry GenAI semantic conventions): per generateText call a root 'invoke_agent <modelId>' span (gen_ai.agent.name = functionId), one 'step N' child (gen_ai.operation.name 'agent_step') per model step, under each step a 'chat <modelId>' span (kind CLIENT) and one 'execute_tool <tool>' span per tool execution; user and session as runtime context attributes ai.settings.context.userId|sessionId on invoke_agent and step spans only",
    setup:
      "NodeTracerProvider (resource service.name 'shop-service') + BatchSpanProcessor (maxExportBatchSize 100, so some traces straddle two exports) + OTLPTraceExporter (protobuf) to the loopback receiver; registerTelemetry(new OpenTelemetry({ runtimeContext: true })); generateText with MockLanguageModelV4 (provider 'mock-provider', model 'mock-shop-model'), instructions, tools via tool({inputSchema: zod}), stopWhen stepCountIs(5); runs sequential, one trace per run",
    user_must_set: {
      integration: "registerTelemetry(new OpenTelemetry({ runtimeContext: true })) once at startup (from 'ai' and '@ai-sdk/otel'); without runtimeContext: true no ai.settings.context.* attribute is written",
      per_call: "runtimeContext: { userId: <account>, sessionId: <thread> } and telemetry: { functionId: 'shop-ai-sdk-7', includeRuntimeContext: { userId: true, sessionId: true } } on every generateText call (runtime context keys are excluded from telemetry unless listed)",
      tracer_provider: "a registered global OpenTelemetry TracerProvider with an OTLP exporter (or OpenTelemetry({ tracer }))",
    },
    exports: receiver.exports.length,
  },
  receiver.exports,
);
console.log(`${FRAMEWORK}: ${receiver.exports.length} exports -> ${dir}`);
