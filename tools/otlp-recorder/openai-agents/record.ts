// Records OpenAI Agents JS (@openai/agents) instrumented with OpenInference
// (@arizeai/openinference-instrumentation-openai-agents) for the shop agent's 30 scripted runs.
//
// Everything that ends up in a span is the packages' own doing: the Agents SDK's tracing (trace,
// agent, turn/task, response and function spans) and OpenInference's TracingProcessor that turns
// them into OpenTelemetry spans, exported by the OTLP/protobuf exporter to the loopback receiver.
// The model is the SDK's own OpenAIResponsesModel (what `new Agent({ model: "gpt-…" })` uses),
// served by a ModelProvider whose OpenAI client has a scripted `fetch`: no request leaves the
// process; each POST /responses is answered with a Responses API object holding the run's next
// scripted function_call, or its final message once the script is done.
import * as agents from "@openai/agents";
import { Agent, OpenAIResponsesModel, Runner, tool } from "@openai/agents";
import type { ModelProvider } from "@openai/agents";
import { OpenAIAgentsInstrumentation } from "@arizeai/openinference-instrumentation-openai-agents";
import { setSession, setUser } from "@arizeai/openinference-core";
import { context } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import OpenAI from "openai";
import { scenario, toolResult, TOOLS } from "../common/scenario.ts";
import type { ScenarioRun, ToolCall } from "../common/scenario.ts";
import { installedVersions, startReceiver, writeFixture } from "../common/receiver.ts";

const FIXTURE = "openai-agents";
const SERVICE_NAME = "shop-service";
const MODEL = "gpt-4.1-mini";

/** A Responses API `Response` object, as api.openai.com returns it for a non-streamed call. */
function responseObject(run: ScenarioRun, step: number, request: Record<string, unknown>) {
  const id = `${String(run.index).padStart(2, "0")}${step}`;
  const call: ToolCall | undefined = run.script[step];
  const output = call
    ? [{ type: "function_call", id: `fc_${id}`, call_id: `call_${id}`, name: call.tool, arguments: JSON.stringify(call.arguments), status: "completed" }]
    : [{ type: "message", id: `msg_${id}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: run.answer, annotations: [], logprobs: [] }] }];
  const inputTokens = 100 + 40 * step;
  // The fields the API echoes from the request (instructions, tools, …) are echoed the same way.
  return {
    id: `resp_${id}`,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status: "completed",
    background: false,
    error: null,
    incomplete_details: null,
    instructions: request.instructions ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    max_tool_calls: null,
    model: `${MODEL}-2025-04-14`,
    output,
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    previous_response_id: request.previous_response_id ?? null,
    prompt_cache_key: null,
    reasoning: { effort: null, summary: null },
    safety_identifier: null,
    service_tier: "default",
    store: request.store ?? true,
    temperature: request.temperature ?? 1,
    text: request.text ?? { format: { type: "text" }, verbosity: "medium" },
    tool_choice: request.tool_choice ?? "auto",
    tools: request.tools ?? [],
    top_logprobs: 0,
    top_p: request.top_p ?? 1,
    truncation: request.truncation ?? "disabled",
    usage: { input_tokens: inputTokens, input_tokens_details: { cached_tokens: 0 }, output_tokens: 20, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: inputTokens + 20 },
    user: null,
    metadata: request.metadata ?? {},
  };
}

/** An OpenAI client whose transport answers from the run's script (never the network). */
function scriptedClient(run: ScenarioRun): OpenAI {
  const scriptedFetch = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const target = String(url instanceof Request ? url.url : url);
    if (!target.endsWith("/responses")) throw new Error(`unexpected request ${target}`);
    const body = JSON.parse(String(init?.body)) as { input: { type?: string }[] } & Record<string, unknown>;
    // The model step is the number of tool outputs already fed back.
    const step = body.input.filter((item) => item.type === "function_call_output").length;
    return new Response(JSON.stringify(responseObject(run, step, body)), {
      status: 200,
      headers: { "content-type": "application/json", "x-request-id": `req_${run.index}_${step}` },
    });
  };
  return new OpenAI({ apiKey: "sk-scripted", baseURL: "http://127.0.0.1:9/v1", fetch: scriptedFetch as typeof fetch, maxRetries: 0 });
}

class ScriptedProvider implements ModelProvider {
  private readonly run: ScenarioRun;
  constructor(run: ScenarioRun) {
    this.run = run;
  }
  getModel(modelName?: string) {
    return new OpenAIResponsesModel(scriptedClient(this.run), modelName ?? MODEL);
  }
}

/**
 * The shop's tools as Agents SDK function tools; issue_refund throws in refund_fail runs. Without
 * an errorFunction the SDK tells the model "An error occurred while running the tool. Please try
 * again." and the function span's error data says "Tool execution failed. Error details are
 * redacted."; a custom errorFunction (the SDK's documented hook) passes the error's text to both.
 */
function shopTools(run: ScenarioRun) {
  return (Object.keys(TOOLS) as ToolCall["tool"][]).map((name) =>
    tool({
      name,
      description: TOOLS[name].description,
      parameters: TOOLS[name].parameters as never,
      strict: false,
      execute: async (input: unknown) => toolResult(run.kind, { tool: name, arguments: input as Record<string, unknown> }) as never,
      errorFunction: (_context: unknown, error: unknown) => `Error: ${(error as Error).message}`,
    }),
  );
}

const receiver = await startReceiver();
const provider = new NodeTracerProvider({
  resource: resourceFromAttributes({ "service.name": SERVICE_NAME }),
  spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: receiver.endpoint }))],
});
provider.register();
// OpenInference's documented ESM setup: its TracingProcessor replaces the SDK's default exporter.
const instrumentation = new OpenAIAgentsInstrumentation({ tracerProvider: provider });
instrumentation.manuallyInstrument(agents);

for (const run of scenario) {
  const agent = new Agent({
    name: "shop-openai-agents",
    instructions: "You are the shop's support agent. Use the tools to answer.",
    model: MODEL,
    tools: shopTools(run),
  });
  // The SDK's own conversation grouping (groupId = the thread, traceMetadata) plus OpenInference's
  // context helpers, which are what put session.id / user.id on the spans.
  const runner = new Runner({ modelProvider: new ScriptedProvider(run), groupId: run.thread, traceMetadata: { account: run.account } });
  const ctx = setUser(setSession(context.active(), { sessionId: run.thread }), { userId: run.account });
  const result = await context.with(ctx, () => runner.run(agent, run.query));
  if (result.finalOutput !== run.answer) throw new Error(`run ${run.index}: answered ${JSON.stringify(result.finalOutput)}, expected ${JSON.stringify(run.answer)}`);
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
        "@openai/agents",
        "@openai/agents-core",
        "@openai/agents-openai",
        "openai",
        "@arizeai/openinference-instrumentation-openai-agents",
        "@arizeai/openinference-core",
        "@arizeai/openinference-semantic-conventions",
        "@opentelemetry/api",
        "@opentelemetry/sdk-trace-node",
        "@opentelemetry/sdk-trace-base",
        "@opentelemetry/resources",
        "@opentelemetry/exporter-trace-otlp-proto",
        "zod",
      ],
    ),
    emitted_by: "instrumentation",
    convention:
      "OpenInference semantic conventions (openinference.span.kind AGENT / LLM / TOOL / CHAIN, input.value / output.value, llm.*, tool.name, session.id, user.id), from the OpenAI Agents SDK's own trace/span events via OpenInference's TracingProcessor",
    exporter: "OTLPTraceExporter from @opentelemetry/exporter-trace-otlp-proto (application/x-protobuf) behind a BatchSpanProcessor",
    resource: { "service.name": SERVICE_NAME },
    what_the_user_must_set: [
      "Register a NodeTracerProvider with an OTLP exporter pointed at Proctor, then new OpenAIAgentsInstrumentation({ tracerProvider }).manuallyInstrument(await import('@openai/agents')) (or instrument() in CommonJS)",
      "Agent name: new Agent({ name: 'shop-openai-agents' }) (appears as the AGENT span's name and graph.node.id; nothing carries a separate agent id)",
      "Run the agent inside context.with(setUser(setSession(context.active(), { sessionId: <thread> }), { userId: <account> }), ...) from @arizeai/openinference-core: every span of the run then has session.id and user.id",
      "The SDK's own groupId / traceMetadata (RunConfig) are set here too but OpenInference does not export them",
      "tool({ ..., errorFunction: (_ctx, error) => `Error: ${error.message}` }): with the SDK's default errorFunction a tool's error text reaches neither the model nor the trace (status message 'Error running tool (non-fatal): {\"tool_name\":…,\"error\":\"Tool execution failed. Error details are redacted.\"}', output.value 'An error occurred while running the tool. Please try again.')",
    ],
    scripted_model:
      "The SDK's OpenAIResponsesModel via a ModelProvider whose OpenAI client has a scripted fetch (no network): each /responses call returns the run's next function_call (call_id call_<run><step>), then a message with run.answer; fixed usage",
  },
  receiver.exports,
);
console.log(`${receiver.exports.length} exports → ${dir}`);
