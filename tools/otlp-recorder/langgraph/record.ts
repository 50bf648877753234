// Records LangGraph JS, through LangChain v1's prebuilt agent (createAgent, the successor of
// @langchain/langgraph/prebuilt's createReactAgent, built on a LangGraph StateGraph), instrumented
// with OpenInference's LangChain instrumentation, for the shop agent's 30 scripted runs.
//
// The spans are OpenInference's LangChainTracer's, made from LangChain's own callback runs (graph,
// nodes, chat model, tools); the OTLP/protobuf exporter sends them to the loopback receiver. The
// model is @langchain/openai's ChatOpenAI (what most LangGraph agents run) whose OpenAI client has a
// scripted `fetch`: no request leaves the process; each POST /chat/completions is answered with a
// chat.completion holding the run's next scripted tool call, or its answer once the script is done.
// (With @langchain/core's fakeModel() the LLM spans would show no tool calls: OpenInference reads
// them from additional_kwargs.tool_calls, which provider classes such as ChatOpenAI fill.)
import { LangChainInstrumentation } from "@arizeai/openinference-instrumentation-langchain";
import { setUser } from "@arizeai/openinference-core";
import * as CallbackManagerModule from "@langchain/core/callbacks/manager";
import { awaitAllCallbacks } from "@langchain/core/callbacks/promises";
import { HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { MemorySaver } from "@langchain/langgraph";
import { ChatOpenAI } from "@langchain/openai";
import { context } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { createAgent } from "langchain";
import { scenario, toolResult, TOOLS } from "../common/scenario.ts";
import type { ScenarioRun, ToolCall } from "../common/scenario.ts";
import { installedVersions, startReceiver, writeFixture } from "../common/receiver.ts";

const FIXTURE = "langgraph";
const SERVICE_NAME = "shop-service";

const MODEL = "gpt-4.1-mini";

/** A chat.completion object, as api.openai.com returns it for a non-streamed call. */
function completion(run: ScenarioRun, step: number) {
  const id = `${String(run.index).padStart(2, "0")}_${step}`;
  const call: ToolCall | undefined = run.script[step];
  const message = call
    ? { role: "assistant", content: null, refusal: null, annotations: [], tool_calls: [{ id: `call_${id}`, type: "function", function: { name: call.tool, arguments: JSON.stringify(call.arguments) } }] }
    : { role: "assistant", content: run.answer, refusal: null, annotations: [] };
  const promptTokens = 100 + 40 * step;
  return {
    id: `chatcmpl-${id}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: `${MODEL}-2025-04-14`,
    choices: [{ index: 0, message, logprobs: null, finish_reason: call ? "tool_calls" : "stop" }],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: 20,
      total_tokens: promptTokens + 20,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    },
    service_tier: "default",
    system_fingerprint: "fp_scripted",
  };
}

/** ChatOpenAI over a scripted transport: the model step is the number of tool messages so far. */
function scriptedModel(run: ScenarioRun) {
  const scriptedFetch = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const target = String(url instanceof Request ? url.url : url);
    if (!target.endsWith("/chat/completions")) throw new Error(`unexpected request ${target}`);
    const body = JSON.parse(String(init?.body)) as { messages: { role: string }[]; stream?: boolean };
    if (body.stream) throw new Error("unexpected streamed request");
    const step = body.messages.filter((m) => m.role === "tool").length;
    return new Response(JSON.stringify(completion(run, step)), {
      status: 200,
      headers: { "content-type": "application/json", "x-request-id": `req_${run.index}_${step}` },
    });
  };
  return new ChatOpenAI({
    model: MODEL,
    apiKey: "sk-scripted",
    maxRetries: 0,
    configuration: { baseURL: "http://127.0.0.1:9/v1", fetch: scriptedFetch as typeof fetch },
  });
}

/** The shop's tools as LangChain tools; issue_refund throws in refund_fail runs. */
function shopTools(run: ScenarioRun) {
  return (Object.keys(TOOLS) as ToolCall["tool"][]).map((name) =>
    tool(async (input: Record<string, unknown>) => JSON.stringify(toolResult(run.kind, { tool: name, arguments: input })), {
      name,
      description: TOOLS[name].description,
      schema: TOOLS[name].parameters as never,
    }),
  );
}

const receiver = await startReceiver();
const provider = new NodeTracerProvider({
  resource: resourceFromAttributes({ "service.name": SERVICE_NAME }),
  spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: receiver.endpoint }))],
});
provider.register();
// OpenInference's documented setup: LangChain's callback manager is instrumented by hand.
const instrumentation = new LangChainInstrumentation({ tracerProvider: provider });
instrumentation.manuallyInstrument(CallbackManagerModule);

const checkpointer = new MemorySaver();
for (const run of scenario) {
  const agent = createAgent({
    name: "shop-langgraph",
    model: scriptedModel(run),
    tools: shopTools(run),
    systemPrompt: "You are the shop's support agent. Use the tools to answer.",
    checkpointer,
  });
  // LangGraph's thread: configurable.thread_id (with a checkpointer); LangGraph copies it into the
  // runs' metadata, where OpenInference reads it as session.id. The user: OpenInference's setUser.
  const state = await context.with(setUser(context.active(), { userId: run.account }), () =>
    agent.invoke({ messages: [new HumanMessage(run.query)] }, { configurable: { thread_id: run.thread } }),
  );
  const last = state.messages.at(-1);
  if (last?.content !== run.answer) throw new Error(`run ${run.index}: answered ${JSON.stringify(last?.content)}, expected ${JSON.stringify(run.answer)}`);
}

// LangChain may run callbacks in the background: let them finish before flushing.
await awaitAllCallbacks();
await provider.forceFlush();
await provider.shutdown();
await receiver.close();

const dir = writeFixture(
  FIXTURE,
  {
    packages: installedVersions(
      import.meta.dirname,
      [
        "@langchain/langgraph",
        "@langchain/langgraph-checkpoint",
        "@langchain/core",
        "@langchain/openai",
        "openai",
        "langchain",
        "@arizeai/openinference-instrumentation-langchain",
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
      "OpenInference semantic conventions (openinference.span.kind CHAIN / LLM / TOOL, input.value / output.value, llm.input_messages.* / llm.output_messages.*, tool.name, session.id, user.id, metadata), from LangChain callback runs via OpenInference's LangChainTracer",
    exporter: "OTLPTraceExporter from @opentelemetry/exporter-trace-otlp-proto (application/x-protobuf) behind a BatchSpanProcessor",
    resource: { "service.name": SERVICE_NAME },
    what_the_user_must_set: [
      "Register a NodeTracerProvider with an OTLP exporter pointed at Proctor, then new LangChainInstrumentation({ tracerProvider }).manuallyInstrument(await import('@langchain/core/callbacks/manager'))",
      "Agent name: createAgent({ name: 'shop-langgraph', ... }) (the graph's root span is named after it)",
      "Thread: invoke(..., { configurable: { thread_id: <thread> } }) with a checkpointer; OpenInference turns metadata.thread_id (or session_id / conversation_id) into session.id",
      "User: run the agent inside context.with(setUser(context.active(), { userId: <account> }), ...) from @arizeai/openinference-core",
    ],
    scripted_model:
      "ChatOpenAI from @langchain/openai whose OpenAI client has a scripted fetch (no network): each /chat/completions call returns the run's next tool call (id call_<run>_<step>), then a message with run.answer; fixed usage",
  },
  receiver.exports,
);
console.log(`${receiver.exports.length} exports → ${dir}`);
