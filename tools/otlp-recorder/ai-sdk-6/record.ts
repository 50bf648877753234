// Records the shop agent's 30 scripted runs through the Vercel AI SDK 6 (`ai@6`): `generateText`
// with three tools and `stopWhen: stepCountIs(5)`, its own telemetry (`experimental_telemetry`,
// which writes `ai.*` spans with the global tracer) exported by OpenTelemetry's OTLP/HTTP protobuf
// exporter to a loopback receiver. The model is `MockLanguageModelV3` from `ai/test`: each
// doGenerate answers the run's next scripted tool call (counting the tool results already in the
// prompt), then the run's answer. Writes tests/fixtures/otlp/ai-sdk-6/.
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";
import { generateText, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import { installedVersions, startReceiver, writeFixture } from "../common/receiver.ts";
import { scenario, TOOLS, toolResult, type ScenarioRun, type ToolCall } from "../common/scenario.ts";

const FRAMEWORK = "ai-sdk-6";
const AGENT = `shop-${FRAMEWORK}`;
const SERVICE = "shop-service"; // the process's service.name, deliberately not the agent's name

const receiver = await startReceiver();
const provider = new NodeTracerProvider({
  resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: SERVICE }),
  spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: receiver.endpoint }))],
});
provider.register();

/** The scripted model of one run: the next tool call of `run.script`, then `run.answer`. */
function scriptedModel(run: ScenarioRun): MockLanguageModelV3 {
  return new MockLanguageModelV3({
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
    system: "You are the shop's support agent. Use the tools to answer.",
    prompt: run.query,
    tools: shopTools(run),
    stopWhen: stepCountIs(5),
    experimental_telemetry: { isEnabled: true, functionId: AGENT, metadata: { userId: run.account, sessionId: run.thread } },
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
      "Vercel AI SDK 6 telemetry (ai.* attributes, not GenAI semconv): per generateText call one 'ai.generateText' span (operation.name 'ai.generateText <functionId>'), a child 'ai.generateText.doGenerate' per model step and 'ai.toolCall' per tool execution; a few gen_ai.* request/response/usage attributes on doGenerate",
    setup:
      "NodeTracerProvider (resource service.name 'shop-service') + BatchSpanProcessor (defaults) + OTLPTraceExporter (protobuf) to the loopback receiver; generateText with MockLanguageModelV3 (provider 'mock-provider', model 'mock-shop-model'), tools via tool({inputSchema: zod}), stopWhen stepCountIs(5); runs sequential, one trace per run",
    user_must_set: {
      experimental_telemetry: "{ isEnabled: true, functionId: 'shop-ai-sdk-6', metadata: { userId: <account>, sessionId: <thread> } } on every generateText call (telemetry is off by default)",
      tracer_provider: "a registered global OpenTelemetry TracerProvider with an OTLP exporter (or experimental_telemetry.tracer)",
    },
    exports: receiver.exports.length,
  },
  receiver.exports,
);
console.log(`${FRAMEWORK}: ${receiver.exports.length} exports -> ${dir}`);
