// OpenInference (Arize's conventions, written by its instrumentations of OpenAI Agents JS,
// LangChain / LangGraph JS and others): `openinference.span.kind` names the span's role (AGENT
// is an invocation, LLM a chat call, TOOL a tool call; CHAIN and the rest are structure); input
// and output are `input.value` / `output.value`, an LLM call's messages the flattened
// `llm.input_messages.<i>.message.*` / `llm.output_messages.<i>.message.*` (content, contents,
// tool_calls) and its tools `llm.tools.<i>.tool.json_schema`; a tool's name is `tool.name`.
// The agent is named by `agent.name`, else `graph.node.id` (OpenAI Agents), else the LangChain
// run's `metadata.lc_agent_name` (LangGraph's createAgent); user and thread are user.id and
// session.id. What the instrumentations add: LangChain's serialized ToolMessage as a tool's output
// (its content is the result, its tool_call_id the call), `metadata.langgraph_step` as the step,
// and OpenAI Agents' "Error running tool (non-fatal): {…}" status message (its `error` is the error).
import { stringAttr, type Attributes, type StagedSpan } from "../spans";
import { errorOf, shapeWithIdentity, isRecord, jsonish, messagesIn, toolDefinitions, type AskedCall, type Role, type Said, type SpanShape } from "./shape";

const KIND = "openinference.span.kind";
const ROLES: Record<string, Role> = { AGENT: "invocation", LLM: "chat", TOOL: "tool" };

const kindOf = (s: StagedSpan) => (stringAttr(s.attributes, KIND) ?? "").toUpperCase();

export const openInference = {
  name: "OpenInference",
  claims: (s: StagedSpan) => stringAttr(s.attributes, KIND) !== null,
  role: (s: StagedSpan): Role => ROLES[kindOf(s)] ?? "other",
  agent(s: StagedSpan) {
    const name = stringAttr(s.attributes, "agent.name") ?? stringAttr(s.attributes, "graph.node.id") ?? metadataOf(s.attributes).lc_agent_name;
    return { name: typeof name === "string" && name ? name : undefined };
  },
  read(s: StagedSpan): SpanShape {
    const a = s.attributes;
    const role = openInference.role(s);
    const shape: SpanShape = shapeWithIdentity(role, a);
    const step = metadataOf(a).langgraph_step;
    if (typeof step === "number") shape.stepIndex = step;
    if (role === "chat") {
      shape.input = flatMessages(a, "llm.input_messages").map(saidOf).filter((m) => m.text !== "");
      shape.output = flatMessages(a, "llm.output_messages").map(saidOf).filter((m) => m.text !== "");
      shape.asked = flatMessages(a, "llm.output_messages").flatMap(askedOf);
      shape.priorCalls = flatMessages(a, "llm.input_messages").flatMap(askedOf).length;
      shape.tools = flatList(a, "llm.tools").flatMap((t) => toolDefinitions([isRecord(t.tool) ? t.tool.json_schema : undefined]));
    } else if (role === "invocation") {
      shape.input = a["input.value"] !== undefined ? messagesIn(a["input.value"], "user") : [];
      // An agent's output is its answer when it is text (LangGraph's is the graph state, as JSON).
      const out = jsonish(a["output.value"]);
      shape.output = typeof out === "string" && out ? [{ role: "assistant", text: out }] : [];
    } else if (role === "tool") {
      shape.tool = toolOf(s);
    }
    shape.error = errorOf(s, agentsToolError(s.statusMessage));
    return shape;
  },
};

function metadataOf(a: Attributes): Record<string, unknown> {
  const m = jsonish(a["metadata"]);
  return isRecord(m) ? m : {};
}

/** A tool call: tool.name (else the span's name), input.value as its arguments, output.value as its result. */
function toolOf(s: StagedSpan): SpanShape["tool"] {
  const a = s.attributes;
  let result: unknown = a["output.value"] === undefined ? undefined : jsonish(a["output.value"]);
  let callId = stringAttr(a, "tool_call.id") ?? undefined;
  const message = langChainMessage(isRecord(result) && "output" in result ? result.output : result);
  if (message) {
    result = jsonish(message.content);
    if (typeof message.tool_call_id === "string") callId ??= message.tool_call_id;
  }
  return {
    name: stringAttr(a, "tool.name") ?? s.name,
    callId,
    arguments: a["input.value"] === undefined ? undefined : jsonish(a["input.value"]),
    result,
  };
}

/** The kwargs of a LangChain-serialized message (`{lc: 1, type: "constructor", id: [..., "ToolMessage"], kwargs}`). */
function langChainMessage(v: unknown): Record<string, unknown> | null {
  return isRecord(v) && v.lc === 1 && isRecord(v.kwargs) ? v.kwargs : null;
}

/** OpenAI Agents' "Error running tool (non-fatal): {"tool_name": …, "error": …}": the error it names. */
function agentsToolError(message: string | null): string | undefined {
  const m = message ? /^Error running tool[^:]*: (\{[\s\S]*\})$/.exec(message) : null;
  if (!m) return undefined;
  const body = jsonish(m[1]);
  return isRecord(body) && typeof body.error === "string" ? body.error : undefined;
}

type Flat = Record<string, unknown>;

/** `<prefix>.<i>.…` attributes as a list, each entry the nested object of its dotted keys. */
function flatList(a: Attributes, prefix: string): Flat[] {
  const byIndex = new Map<number, Flat>();
  const head = prefix + ".";
  for (const key in a) {
    if (!key.startsWith(head)) continue;
    const path = key.slice(head.length).split(".");
    const index = Number(path[0]);
    if (!Number.isInteger(index) || index < 0 || index > 10_000) continue;
    let node = byIndex.get(index) ?? byIndex.set(index, {}).get(index)!;
    for (const p of path.slice(1, -1)) node = isRecord(node[p]) ? (node[p] as Flat) : (node[p] = {});
    node[path[path.length - 1]] = a[key];
  }
  return [...byIndex.entries()].sort((x, y) => x[0] - y[0]).map(([, v]) => v);
}

const flatMessages = (a: Attributes, prefix: string) => flatList(a, prefix).map((m) => (isRecord(m.message) ? m.message : {}));

/** A flattened message: its role and content, else its text contents. */
function saidOf(m: Flat): Said {
  const contents = isRecord(m.contents) ? Object.keys(m.contents).sort((x, y) => Number(x) - Number(y)).map((k) => (m.contents as Flat)[k]) : [];
  const text =
    typeof m.content === "string" && m.content
      ? m.content
      : contents
          .map((c) => (isRecord(c) && isRecord(c.message_content) && (c.message_content.type ?? "text") === "text" ? c.message_content.text : ""))
          .filter((t): t is string => typeof t === "string" && t !== "")
          .join("\n");
  return { role: typeof m.role === "string" ? m.role : "assistant", text };
}

function askedOf(m: Flat): AskedCall[] {
  const calls = isRecord(m.tool_calls) ? Object.keys(m.tool_calls).sort((x, y) => Number(x) - Number(y)).map((k) => (m.tool_calls as Flat)[k]) : [];
  return calls.flatMap((c) => {
    const call = isRecord(c) && isRecord(c.tool_call) ? c.tool_call : null;
    if (!call) return [];
    const fn = isRecord(call.function) ? call.function : {};
    return [{ id: typeof call.id === "string" ? call.id : undefined, name: typeof fn.name === "string" ? fn.name : undefined, arguments: jsonish(fn.arguments) }];
  });
}
