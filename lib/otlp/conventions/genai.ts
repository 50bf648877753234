// OpenTelemetry's GenAI semantic conventions, stable and latest-experimental, as the frameworks
// write them: `gen_ai.operation.name` names the span's role; messages are attributes
// (gen_ai.input/output.messages, the older gen_ai.prompt / gen_ai.completion), latest-experimental
// `gen_ai.client.inference.operation.details` events, or the older per-message events
// (gen_ai.{system,user,assistant,tool}.message, gen_ai.choice), with parts as `content` or `text`.
// Dialects read here because they ride on GenAI spans: Strands' tool arguments and results in
// gen_ai.tool.message / gen_ai.choice events, AI SDK 7's `step N` spans, Mastra's attributes
// (./mastra.ts). Also the GenAI spans that carry no operation name (Pydantic AI's tool spans with
// only gen_ai.tool.name, its `agent run` span): `genaiUnnamed`.
import { stringAttr, type StagedSpan } from "../spans";
import {
  callsIn,
  errorOf,
  eventsNamed,
  firstAttr,
  firstEvent,
  shapeWithIdentity,
  isRecord,
  jsonish,
  messagesIn,
  toolDefinitions,
  unwrapResult,
  type AskedCall,
  type Role,
  type Said,
  type SpanShape,
} from "./shape";
import { mastraInvocation, mastraStep } from "./mastra";

const OPERATION = "gen_ai.operation.name";
const DETAILS = "gen_ai.client.inference.operation.details";

const ROLES: Record<string, Role> = {
  invoke_agent: "invocation",
  create_agent: "other",
  invoke_workflow: "invocation",
  execute_tool: "tool",
  chat: "chat",
  text_completion: "chat",
  generate_content: "chat",
};

export const genai = {
  name: "OpenTelemetry GenAI",
  claims: (s: StagedSpan) => stringAttr(s.attributes, OPERATION) !== null,
  role: (s: StagedSpan): Role => ROLES[stringAttr(s.attributes, OPERATION)!] ?? "other",
  agent(s: StagedSpan) {
    if (stringAttr(s.attributes, OPERATION) === "invoke_workflow")
      return { name: stringAttr(s.attributes, "gen_ai.workflow.name") ?? (s.name.replace(/^invoke_workflow\s*/, "") || undefined) };
    return { id: stringAttr(s.attributes, "gen_ai.agent.id") ?? undefined, name: stringAttr(s.attributes, "gen_ai.agent.name") ?? undefined };
  },
  read(s: StagedSpan): SpanShape {
    const role = genai.role(s);
    const shape: SpanShape = shapeWithIdentity(role, s.attributes, errorOf(s));
    // Each message list is parsed once, for its messages and for the tool calls it holds.
    const inputs = current(s, "gen_ai.input.messages");
    const outputs = current(s, "gen_ai.output.messages");
    shape.input = inputMessages(s, role, inputs);
    shape.output = outputMessages(s, role, outputs);
    // Tool definitions, and the bare names of Strands' gen_ai.agent.tools.
    const a = s.attributes;
    if (a["gen_ai.tool.definitions"] !== undefined || a["gen_ai.agent.tools"] !== undefined)
      shape.tools = [...toolDefinitions(a["gen_ai.tool.definitions"]), ...toolDefinitions(a["gen_ai.agent.tools"])];
    const mastra = mastraStep(s);
    if (role === "tool") shape.tool = toolOf(s);
    else {
      shape.asked = askedIn(s, outputs, mastra.asked);
      shape.priorCalls = priorCallsIn(s, inputs);
    }
    if (role === "invocation") {
      const m = mastraInvocation(s);
      if (!shape.input.length && m.input) shape.input = m.input;
      if (!shape.output.length && m.output) shape.output = m.output;
    }
    shape.stepIndex = mastra.stepIndex ?? agentStepIndex(s);
    return shape;
  },
  lacks: (s: StagedSpan) => (genai.role(s) === "tool" && stringAttr(s.attributes, "gen_ai.tool.name") === null ? "execute_tool span without gen_ai.tool.name" : null),
};

/** Pydantic AI's spans without gen_ai.operation.name: tool spans named by gen_ai.tool.name, and its agent run span. */
export const genaiUnnamed = {
  name: "GenAI without an operation name",
  claims: (s: StagedSpan) => stringAttr(s.attributes, "gen_ai.tool.name") !== null || isAgentRun(s),
  role: (s: StagedSpan): Role => (stringAttr(s.attributes, "gen_ai.tool.name") !== null ? "tool" : "invocation"),
  agent: (s: StagedSpan) => ({ id: stringAttr(s.attributes, "gen_ai.agent.id") ?? undefined, name: firstAttr(s.attributes, ["gen_ai.agent.name", "agent_name"]) }),
  read(s: StagedSpan): SpanShape {
    const role = genaiUnnamed.role(s);
    const shape: SpanShape = shapeWithIdentity(role, s.attributes, errorOf(s));
    if (role === "tool") shape.tool = toolOf(s);
    else if (s.attributes["final_result"] !== undefined) shape.output = messagesIn(s.attributes["final_result"], "assistant");
    return shape;
  },
};

function isAgentRun(s: StagedSpan) {
  return (s.name === "agent run" || s.name.startsWith("invoke_agent ")) && firstAttr(s.attributes, ["gen_ai.agent.name", "agent_name"]) !== undefined;
}

/**
 * The current form of gen_ai.input.messages or gen_ai.output.messages, each value parsed once:
 * the attribute, else the latest-experimental details events' (one list per event); null when
 * the span carries neither.
 */
function current(s: StagedSpan, key: "gen_ai.input.messages" | "gen_ai.output.messages"): unknown[] | null {
  if (s.attributes[key] !== undefined) return [parsedOnce(s.attributes[key])];
  if (s.events.length === 0) return null;
  const values = eventsNamed(s, DETAILS).flatMap((e) => (e.attributes[key] !== undefined ? [parsedOnce(e.attributes[key])] : []));
  return values.length ? values : null;
}

/** JSON text as its value, for readers that parse JSON text themselves: text stays text (parsing it twice could differ). */
function parsedOnce(v: unknown): unknown {
  const parsed = jsonish(v);
  return typeof parsed === "string" ? v : parsed;
}

const eventContent = (a: Record<string, unknown>) => a["message"] ?? a["content"] ?? a["gen_ai.event.content"];
const LEGACY_MESSAGE = /^gen_ai\.(user|system|assistant)\.message$/;

/** The current form; the older gen_ai.prompt; the older per-message events (not on tool spans, where Strands puts arguments there). */
function inputMessages(s: StagedSpan, role: Role, inputs: unknown[] | null): Said[] {
  const values = inputs ?? (s.attributes["gen_ai.prompt"] !== undefined ? [s.attributes["gen_ai.prompt"]] : null);
  if (values) return values.flatMap((v) => messagesIn(v, "user"));
  if (role === "tool" || s.events.length === 0) return [];
  return s.events.flatMap((e) => {
    const role = LEGACY_MESSAGE.exec(e.name)?.[1];
    return role ? messagesIn(eventContent(e.attributes), role).map((m) => ({ ...m, role })) : [];
  });
}

/** The current form; the older gen_ai.completion; the older gen_ai.choice events (not on tool spans, where Strands puts results there). */
function outputMessages(s: StagedSpan, role: Role, outputs: unknown[] | null): Said[] {
  const values = outputs ?? (s.attributes["gen_ai.completion"] !== undefined ? [s.attributes["gen_ai.completion"]] : null);
  if (values) return values.flatMap((v) => messagesIn(v, "assistant"));
  if (role === "tool" || s.events.length === 0) return [];
  return eventsNamed(s, "gen_ai.choice").flatMap((e) => messagesIn(eventContent(e.attributes), "assistant"));
}

/** How many tool calls the input holds: the current form, else the older gen_ai.assistant.message events. */
function priorCallsIn(s: StagedSpan, inputs: unknown[] | null): number {
  const values = inputs ?? eventsNamed(s, "gen_ai.assistant.message").map((e) => eventContent(e.attributes));
  return values.reduce((n: number, v) => n + callsIn(v).length, 0);
}

/** The tool calls a chat (or step) span's output asks for: the current form, else gen_ai.choice events, else Mastra's step output. */
function askedIn(s: StagedSpan, outputs: unknown[] | null, mastra: AskedCall[]) {
  const values = outputs ?? eventsNamed(s, "gen_ai.choice").map((e) => eventContent(e.attributes));
  return values.length ? values.flatMap(callsIn) : mastra;
}

/**
 * A tool call: gen_ai.tool.name / gen_ai.tool.call.id; arguments from gen_ai.tool.call.arguments,
 * else the latest-experimental details event's tool_call part, else Strands' gen_ai.tool.message
 * event, else Pydantic AI's tool_arguments; the result likewise (gen_ai.tool.call.result, the
 * details event's tool_call_response, a gen_ai.choice event, tool_response), unwrapped from
 * Strands' content blocks.
 */
function toolOf(s: StagedSpan): SpanShape["tool"] {
  const a = s.attributes;
  let args: unknown = a["gen_ai.tool.call.arguments"];
  args ??= detailPart(s, "gen_ai.input.messages", "tool_call")?.arguments;
  args ??= firstEvent(s, "gen_ai.tool.message")?.["content"];
  args ??= a["tool_arguments"];
  let result: unknown = a["gen_ai.tool.call.result"];
  result ??= detailPart(s, "gen_ai.output.messages", "tool_call_response")?.response;
  result ??= firstEvent(s, "gen_ai.choice")?.["message"];
  result ??= a["tool_response"];
  return {
    name: stringAttr(a, "gen_ai.tool.name") ?? "",
    callId: stringAttr(a, "gen_ai.tool.call.id") ?? undefined,
    arguments: args === undefined ? undefined : jsonish(args),
    result: result === undefined ? undefined : unwrapResult(result),
  };
}

/** The first part of `type` in the messages under `key` of the span's latest-experimental details events. */
function detailPart(s: StagedSpan, key: string, type: string): Record<string, unknown> | undefined {
  for (const e of s.events) {
    if (e.name !== DETAILS) continue;
    const messages = jsonish(e.attributes[key]);
    for (const m of Array.isArray(messages) ? messages : [])
      for (const p of isRecord(m) && Array.isArray(m.parts) ? m.parts : []) if (isRecord(p) && p.type === type) return p;
  }
  return undefined;
}

/** AI SDK 7's `step N` (agent_step) spans (Mastra's model_step.step_index comes first). */
function agentStepIndex(s: StagedSpan): number | undefined {
  if (stringAttr(s.attributes, OPERATION) !== "agent_step") return undefined;
  const n = /^step (\d+)$/.exec(s.name);
  return n ? Number(n[1]) : undefined;
}
