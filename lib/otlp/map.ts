// Staged spans of one trace → runs, as README "OpenTelemetry ingestion" documents. Each span is
// read into the common shape of its convention (./conventions: OpenTelemetry GenAI and the
// frameworks' dialects, OpenInference, the Vercel AI SDK's ai.*, GenAI tool spans without an
// operation name); this file assembles runs from that shape alone:
// - one run per agent invocation, except a wrapper (an invocation with nested invocations and no
//   tool or chat call of its own, such as OpenInference's root span of an OpenAI Agents trace);
//   in a trace without invocations, one per root span with tool-call descendants;
// - its steps: its tool calls (a nested invocation's subtree is that agent's own run) ordered by
//   start time, then the model's step index, then the model's tool-call order (the call ids in
//   the chat spans' outputs), then end time; the span id only when all of those are equal;
// - query, answer, user, thread, conversation messages, outcome and skills.
import { hash } from "node:crypto";
import type { WorkflowInput } from "../learning/capture/schemas";
import { agentOf, namedAgent, shapeOf, type AskedCall, type ObservedTool, type Said, type SpanShape } from "./conventions";
import { isRecord, jsonish } from "./conventions/shape";
import { stringAttr, STATUS_ERROR, type StagedSpan } from "./spans";

export type { ObservedTool } from "./conventions";
export type Message = { message_id: string; role: "user" | "assistant"; text: string; timestamp: string };

export type AssembledRun = {
  agent: { id: string; name: string };
  workflow: WorkflowInput & { workflow_id: string };
  tools: ObservedTool[];
  messages: Message[];
};

type Node = { span: StagedSpan; shape: SpanShape; parent: Node | null; children: Node[]; own?: Node[] };

export function runsOfTrace(spans: StagedSpan[]): AssembledRun[] {
  const nodes = new Map<string, Node>();
  for (const span of [...spans].sort(byTime)) nodes.set(span.spanId, { span, shape: shapeOf(span), parent: null, children: [] });
  linkParents(nodes);
  const all = [...nodes.values()];
  const invocations = all.filter((n) => n.shape.role === "invocation");
  const roots = invocations.length
    ? invocations.filter((n) => !isWrapper(n))
    : all.filter((n) => n.parent === null && below(n).some((d) => d.shape.role === "tool"));
  return roots.flatMap((root) => {
    const own = below(root);
    const named = [root, ...own].map((n) => namedAgent(n.span)).find((a) => a.id || a.name) ?? {};
    const agent = agentOf(root.span, root.shape.role === "invocation" ? namedAgent(root.span) : named);
    return agent ? [runOf(root, own, agent)] : [];
  });
}

/**
 * Each span under its parent, except where that would close a loop of parents (spans naming each
 * other, which no tracer writes): there the span becomes a root. Iterative, for any depth.
 */
function linkParents(nodes: Map<string, Node>) {
  const linked = new Set<Node>();
  for (const start of nodes.values()) {
    const path = new Set<Node>();
    for (let n: Node | undefined = start; n && !linked.has(n); ) {
      path.add(n);
      linked.add(n);
      const parent: Node | undefined = n.span.parentSpanId ? nodes.get(n.span.parentSpanId) : undefined;
      if (!parent || path.has(parent)) break;
      n.parent = parent;
      parent.children.push(n);
      n = parent;
    }
  }
}

/** The run's own descendants in time order (a nested invocation's subtree belongs to that invocation's run); walked once per node. */
function below(root: Node): Node[] {
  if (root.own) return root.own;
  const out: Node[] = (root.own = []);
  const stack = [...root.children];
  while (stack.length) {
    const c = stack.pop()!;
    out.push(c);
    if (c.shape.role !== "invocation") stack.push(...c.children);
  }
  return out.sort((a, b) => byTime(a.span, b.span));
}

/** An invocation that only encloses other invocations: no tool call or chat call of its own. */
function isWrapper(n: Node): boolean {
  const own = below(n);
  return own.some((d) => d.shape.role === "invocation") && !own.some((d) => d.shape.role === "tool" || d.shape.role === "chat");
}

function runOf(root: Node, own: Node[], agent: { id: string; name: string }): AssembledRun {
  const chats = own.filter((n) => n.shape.role === "chat");
  const calls = own.filter((n) => n.shape.role === "tool");
  // Who and which thread: the invocation's, then its descendants', then the spans around it.
  const around: Node[] = [];
  for (let p = root.parent; p; p = p.parent) around.push(p);
  const near = [root, ...own, ...around];
  // The request: the invocation's own (its last user message), else the first chat call's.
  let query = lastText(root.shape.input, "user");
  for (let i = 0; query === undefined && i < chats.length; i++) query = lastText(chats[i].shape.input, "user");
  // The answer: the invocation's own, else the last chat call's that has one.
  let answer = lastText(root.shape.output, "assistant");
  for (let i = chats.length - 1; answer === undefined && i >= 0; i--) answer = lastText(chats[i].shape.output, "assistant");
  const skills = skillsOf(root.span.attributes["proctor.skills_activated"]);
  const workflow: AssembledRun["workflow"] = {
    workflow_id: `otel:${root.span.traceId}:${root.span.spanId}`,
    root_trace_id: root.span.traceId,
    user_id: firstOf(near, "user"),
    thread_id: firstOf(near, "thread"),
    query: query ?? "",
    steps: stepsOf(calls, own),
    outcome: outcomeOf(root.span),
    ...(skills.length ? { skills_activated: skills } : {}),
    ...(answer !== undefined ? { answer } : {}),
    created_at: isoOf(root.span.startNs),
  };
  // Messages repeat across chat calls (each sends the history): one per role and text in a trace,
  // its id hashed once.
  const seen = new Map<string, Seen>();
  for (const n of [root, ...chats]) {
    for (const m of n.shape.input) see(seen, m, n.span.startNs);
    for (const m of n.shape.output) see(seen, m, n.span.endNs);
  }
  const messages: Message[] = [];
  for (const [key, m] of seen) {
    const id = "otel:" + hash("sha256", `${root.span.traceId}\n${key}`).slice(0, 32);
    messages.push({ message_id: id, role: m.role, text: m.text, timestamp: isoOf(m.ns) });
  }
  return {
    agent,
    workflow,
    tools: toolsOf([root, ...own]),
    messages: messages.sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : 0)),
  };
}

/** The first of the nodes' shapes that names the account (or the thread). */
function firstOf(nodes: Node[], key: "user" | "thread"): string | undefined {
  for (const n of nodes) if (n.shape[key] !== undefined) return n.shape[key];
  return undefined;
}

/** The text of the last message of `role` that has one. */
function lastText(said: Said[], role: string): string | undefined {
  for (let i = said.length - 1; i >= 0; i--) if (said[i].role === role && said[i].text) return said[i].text;
  return undefined;
}

type Seen = { role: "user" | "assistant"; text: string; ns: string };

/** Notes a user or assistant message with text the first time its role and text are seen, at `ns`. */
function see(seen: Map<string, Seen>, m: Said, ns: string) {
  if ((m.role !== "user" && m.role !== "assistant") || !m.text) return;
  const key = `${m.role}\n${m.text}`;
  if (!seen.has(key)) seen.set(key, { role: m.role, text: m.text, ns });
}

/**
 * The run's tool calls in order: start time; then the model step they belong to (their own or
 * their nearest enclosing step's index); then the position of their call id among the calls the
 * model asked for (the run's spans that ask, in step order, then by how many calls their input
 * already holds, then by time: model calls that start in one millisecond have end times that
 * cannot order them); then end time.
 */
function stepsOf(calls: Node[], own: Node[]): WorkflowInput["steps"] {
  const askers = own
    .filter((n) => n.shape.asked.length > 0)
    .sort((a, b) => cmp(stepOf(a) ?? Infinity, stepOf(b) ?? Infinity) || a.shape.priorCalls - b.shape.priorCalls || byTime(a.span, b.span));
  const asked: AskedCall[] = askers.flatMap((n) => n.shape.asked);
  const position = new Map<string, number>();
  asked.forEach((c, i) => c.id !== undefined && !position.has(c.id) && position.set(c.id, i));
  const ordered = calls
    .map((n) => ({ n, k: { step: stepOf(n) ?? Infinity, call: position.get(n.shape.tool?.callId ?? "") ?? Infinity } }))
    .sort((a, b) => cmpNs(a.n.span.startNs, b.n.span.startNs) || cmp(a.k.step, b.k.step) || cmp(a.k.call, b.k.call) || cmpNs(a.n.span.endNs, b.n.span.endNs) || cmpId(a.n.span, b.n.span))
    .map(({ n }) => n);
  const used = new Set<AskedCall>();
  return ordered.map((n) => {
    const tool = n.shape.tool!;
    const step: WorkflowInput["steps"][number] = { tool: tool.name, timestamp: isoOf(n.span.startNs) };
    // The call the model asked for that this span answers: by call id, else its next call of this tool.
    const call = asked.find((c) => !used.has(c) && tool.callId !== undefined && c.id === tool.callId) ?? asked.find((c) => !used.has(c) && c.name === tool.name);
    if (call) used.add(call);
    // A span without arguments, or with a bare value where the model asked with an object (a
    // one-argument LangChain tool's input), has the model's arguments.
    const args = tool.arguments === undefined || (!isRecord(tool.arguments) && isRecord(call?.arguments)) ? call?.arguments : tool.arguments;
    if (args !== undefined) step.arguments = args;
    if (n.shape.error) step.error = n.shape.error;
    else if (tool.result !== undefined) step.result = tool.result;
    return step;
  });
}

/** The step index of a span: its own, else its nearest ancestor's. */
function stepOf(n: Node): number | undefined {
  for (let p: Node | null = n; p; p = p.parent) {
    if (p.shape.stepIndex !== undefined) return p.shape.stepIndex;
    if (p.shape.role === "invocation") return undefined;
  }
  return undefined;
}

/** Numbers in order, Infinity (not known) last and equal to itself. */
const cmp = (a: number, b: number) => (a === b ? 0 : a < b ? -1 : 1);
const cmpNs = (a: string, b: string) => (a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0);
const cmpId = (a: StagedSpan, b: StagedSpan) => (a.spanId < b.spanId ? -1 : a.spanId > b.spanId ? 1 : 0);
const byTime = (a: StagedSpan, b: StagedSpan) => cmpNs(a.startNs, b.startNs) || cmpNs(a.endNs, b.endNs) || cmpId(a, b);

/**
 * Unix nanoseconds (decimal text, as staged) to ISO time, truncated to the millisecond. A trace's
 * times fall in a few seconds, so each second's text is written once and the milliseconds
 * appended: toISOString costs about 1.5 µs a call on Node 24, and a run takes one per step and
 * message (`npm run bench:otlp`, docs/benchmarks.md#otlp).
 */
function isoOf(ns: string): string {
  const ms = ns.length > 6 ? Number(ns.slice(0, -6)) : 0;
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond.second) lastSecond = { second, text: new Date(second * 1000).toISOString().slice(0, -4) };
  return `${lastSecond.text}${String(ms - second * 1000).padStart(3, "0")}Z`;
}
let lastSecond = { second: NaN, text: "" };

/**
 * proctor.outcome when it names one (the agent's report); else a failure when the invocation's
 * status is ERROR; else nothing: a status OK is no report (frameworks set it on every span), so
 * the engine's rules decide (outcome rule, the last step's error, default).
 */
function outcomeOf(root: StagedSpan): "success" | "failure" | undefined {
  const said = stringAttr(root.attributes, "proctor.outcome")?.toLowerCase();
  if (said === "success" || said === "failure") return said;
  return root.statusCode === STATUS_ERROR ? "failure" : undefined;
}

function skillsOf(v: unknown): string[] {
  const list = jsonish(v);
  return Array.isArray(list) ? list.filter((x): x is string => typeof x === "string" && x.length > 0 && x.length <= 128).slice(0, 100) : [];
}

/** Tools seen: the tool calls' names (and GenAI's gen_ai.tool.description), and the definitions the spans carry. */
function toolsOf(nodes: Node[]): ObservedTool[] {
  const tools = new Map<string, ObservedTool>();
  for (const n of nodes) {
    if (n.shape.tool) seeTool(tools, { name: n.shape.tool.name, description: stringAttr(n.span.attributes, "gen_ai.tool.description") ?? "", parameters: {} });
    for (const t of n.shape.tools) seeTool(tools, t);
  }
  return [...tools.values()];
}

/** A tool sighted: the first sighting of a name, completed by later ones' description and parameters. */
function seeTool(tools: Map<string, ObservedTool>, t: ObservedTool) {
  if (!t.name.trim() || t.name.length > 128) return;
  const known = tools.get(t.name);
  const description = t.description.slice(0, 8000);
  if (!known) tools.set(t.name, { name: t.name, description, parameters: t.parameters });
  else {
    if (!known.description && description) known.description = description;
    if (Object.keys(known.parameters).length === 0) known.parameters = t.parameters;
  }
}
