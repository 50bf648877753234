// Records the shop agent's 30 scripted runs through Mastra (`@mastra/core`): an Agent with id and
// name `shop-mastra`, the three tools made with `createTool`, Memory (`@mastra/memory` on Mastra's
// InMemoryStore), and Mastra's own tracing (`@mastra/observability`) exported by Mastra's
// OpenTelemetry exporter (`@mastra/otel-exporter`, provider `custom`, protocol `http/protobuf`, which
// loads `@opentelemetry/exporter-trace-otlp-proto`) to a loopback receiver. Account and thread are
// passed the Mastra way: `agent.generate(query, { memory: { resource: account, thread } })`.
// The model is the AI SDK 6 test model `MockLanguageModelV3` (Mastra drives it through doStream):
// it finds the run by the user's message, counts the tool results already in the prompt, and
// streams the run's next scripted tool call, then its answer. Writes tests/fixtures/otlp/mastra/.
import { Agent } from "@mastra/core/agent";
import { Mastra } from "@mastra/core/mastra";
import { InMemoryStore } from "@mastra/core/storage";
import { createTool } from "@mastra/core/tools";
import { Memory } from "@mastra/memory";
import { Observability } from "@mastra/observability";
import { OtelExporter } from "@mastra/otel-exporter";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import { installedVersions, startReceiver, writeFixture } from "../common/receiver.ts";
import { scenario, TOOLS, toolResult, type ScenarioRun, type ToolCall } from "../common/scenario.ts";

const FRAMEWORK = "mastra";
const AGENT = `shop-${FRAMEWORK}`;
const SERVICE = "shop-service"; // the process's service.name, deliberately not the agent's name

// Mastra's usage telemetry (PostHog) must never leave the machine; it is read lazily, so this suffices.
process.env.MASTRA_TELEMETRY_DISABLED = "1";

const receiver = await startReceiver();

type Prompt = Array<{ role: string; content: string | Array<{ type: string; text?: string }> }>;

/** The run whose query is the prompt's first user text, and how many tool results it already has. */
function position(prompt: Prompt): { run: ScenarioRun; done: number } {
  const user = prompt.find((m) => m.role === "user");
  const text = typeof user?.content === "string" ? user.content : (user?.content ?? []).map((p) => p.text ?? "").join("");
  const run = scenario.find((r) => r.query === text);
  if (!run) throw new Error(`no scripted run for ${JSON.stringify(text)}`);
  const done = prompt.filter((m) => m.role === "tool").flatMap((m) => m.content as Array<{ type: string }>).filter((p) => p.type === "tool-result").length;
  return { run, done };
}

/** The model's next turn for this prompt: the run's next scripted tool call, else its answer. */
function nextTurn(prompt: Prompt) {
  const { run, done } = position(prompt);
  const usage = {
    inputTokens: { total: 40 + 10 * done, noCache: 40 + 10 * done, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 12, text: 12, reasoning: undefined },
  };
  if (done < run.script.length) {
    const call = run.script[done];
    return {
      content: [{ type: "tool-call" as const, toolCallId: `call-${run.index}-${done}`, toolName: call.tool, input: JSON.stringify(call.arguments) }],
      finishReason: { unified: "tool-calls" as const, raw: "tool_calls" },
      usage,
    };
  }
  return { content: [{ type: "text" as const, text: run.answer }], finishReason: { unified: "stop" as const, raw: "stop" }, usage };
}

let responses = 0;
const model = new MockLanguageModelV3({
  provider: "mock-provider",
  modelId: "mock-shop-model",
  doGenerate: async ({ prompt }) => ({
    ...nextTurn(prompt as Prompt),
    warnings: [],
    response: { id: `resp-${++responses}`, modelId: "mock-shop-model", timestamp: new Date() },
  }),
  // Mastra's agent.generate calls doGenerate; agent.stream would call this.
  doStream: async ({ prompt }) => {
    const turn = nextTurn(prompt as Prompt);
    const parts: unknown[] = [
      { type: "stream-start", warnings: [] },
      { type: "response-metadata", id: `resp-${++responses}`, modelId: "mock-shop-model", timestamp: new Date() },
    ];
    for (const c of turn.content) {
      if (c.type === "text") parts.push({ type: "text-start", id: "t0" }, { type: "text-delta", id: "t0", delta: c.text }, { type: "text-end", id: "t0" });
      else parts.push(c);
    }
    parts.push({ type: "finish", finishReason: turn.finishReason, usage: turn.usage });
    return {
      stream: new ReadableStream({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      }),
    };
  },
});

/** The tools; which answer a tool gives depends on the run (refund_fail runs' refunds throw). */
let current: ScenarioRun | undefined;
const exec = (name: ToolCall["tool"]) => async (input: Record<string, unknown>) => toolResult(current!.kind, { tool: name, arguments: input });
const tools = {
  lookup_order: createTool({ id: "lookup_order", description: TOOLS.lookup_order.description, inputSchema: z.object({ order_id: z.string() }), execute: exec("lookup_order") }),
  track_shipment: createTool({
    id: "track_shipment",
    description: TOOLS.track_shipment.description,
    inputSchema: z.object({ order_id: z.string() }),
    execute: exec("track_shipment"),
  }),
  issue_refund: createTool({
    id: "issue_refund",
    description: TOOLS.issue_refund.description,
    inputSchema: z.object({ order_id: z.string(), amount: z.number() }),
    execute: exec("issue_refund"),
  }),
};

const shopAgent = new Agent({
  id: AGENT,
  name: AGENT,
  instructions: "You are the shop's support agent. Use the tools to answer.",
  model,
  tools,
  memory: new Memory(),
});

const exporter = new OtelExporter({ provider: { custom: { endpoint: receiver.endpoint, protocol: "http/protobuf" } } });
const mastra = new Mastra({
  agents: { shopAgent },
  storage: new InMemoryStore(),
  observability: new Observability({ configs: { otel: { serviceName: SERVICE, exporters: [exporter] } } }),
});

const agent = mastra.getAgent("shopAgent");
for (const run of scenario) {
  current = run;
  const result = await agent.generate(run.query, { memory: { resource: run.account, thread: run.thread }, maxSteps: 5 });
  if (result.text !== run.answer) throw new Error(`run ${run.index}: answered ${JSON.stringify(result.text)}`);
}

await exporter.flush();
await mastra.shutdown();
await receiver.close();

const dir = writeFixture(
  FRAMEWORK,
  {
    packages: installedVersions(
      import.meta.dirname,
      [
        "@mastra/core",
        "@mastra/memory",
        "@mastra/observability",
        "@mastra/otel-exporter",
        "@opentelemetry/exporter-trace-otlp-proto",
        "@opentelemetry/otlp-exporter-base",
        "@opentelemetry/otlp-transformer",
        "@opentelemetry/sdk-trace-base",
        "@opentelemetry/sdk-trace",
        "@opentelemetry/api",
        "ai",
        "zod",
      ], ["@mastra/otel-exporter"],
    ),
    convention:
      "Mastra tracing converted by @mastra/otel-exporter to OpenTelemetry GenAI semantic conventions plus mastra.* attributes: per agent.generate a root 'invoke_agent shop-mastra' (gen_ai.agent.id/name, gen_ai.conversation.id = memory thread, mastra.metadata.resourceId = memory resource, mastra.agent_run.input/output), children 'processor_run MemoryInputFilter', 'memory_operation MessageHistory' (x2) and 'model_generation mock-shop-model', under it one 'agent_step shop-mastra' per model step holding 'chat mock-shop-model' (CLIENT, with 'model_chunk shop-mastra' children) and 'execute_tool <tool>'; every span carries gen_ai.conversation.id and mastra.metadata.runId|resourceId|threadId; timestamps are whole milliseconds",
    setup:
      "new Mastra({ agents: { shopAgent }, storage: new InMemoryStore(), observability: new Observability({ configs: { otel: { serviceName: 'shop-service', exporters: [new OtelExporter({ provider: { custom: { endpoint: <receiver>/v1/traces, protocol: 'http/protobuf' } } })] } } }) }); Agent { id and name 'shop-mastra', instructions, tools from createTool (zod inputSchema), memory: new Memory() }; model: ai@6 MockLanguageModelV3 (provider 'mock-provider', model 'mock-shop-model', Mastra calls its doGenerate); OtelExporter's own BatchSpanProcessor (batch 512, 5 s) and OTLPTraceExporter from @opentelemetry/exporter-trace-otlp-proto; runs sequential, one trace per run; exporter.flush() then mastra.shutdown()",
    user_must_set: {
      observability:
        "Observability config with an OtelExporter (provider custom: endpoint + protocol 'http/protobuf', or OTEL_EXPORTER_OTLP_* env) and @opentelemetry/exporter-trace-otlp-proto installed; serviceName becomes the resource's service.name",
      agent: "Agent id/name (gen_ai.agent.id / gen_ai.agent.name)",
      per_call:
        "agent.generate(query, { memory: { resource: <account>, thread: <thread> } }) with memory configured on the agent: thread -> gen_ai.conversation.id, resource -> mastra.metadata.resourceId (no user.id / enduser.id is emitted); tracingOptions.metadata { k: v } would add mastra.metadata.<k> (not used here)",
    },
    exports: receiver.exports.length,
  },
  receiver.exports,
);
console.log(`${FRAMEWORK}: ${receiver.exports.length} exports -> ${dir}`);
