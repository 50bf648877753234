// Staged spans of one trace → runs, as README "OpenTelemetry ingestion" documents:
// one run per invoke_agent span (or, in a trace without one, per root span with execute_tool
// descendants); its steps are its execute_tool descendants in start order (a nested
// invoke_agent's subtree is that agent's own run); query, user, thread, messages, outcome and
// skills from the GenAI semantic conventions (current attributes and the older event forms).
import { createHash } from "node:crypto";
import type { WorkflowInput } from "../learning/capture/schemas";
import { agentOf, isInvocation, isToolCall, operationOf, stringAttr, STATUS_ERROR, STATUS_OK, type Attributes, type StagedSpan } from "./spans";

export type ObservedTool = { name: string; description: string; parameters: Record<string, unknown> };
export type Message = { message_id: string; role: "user" | "assistant"; text: string; timestamp: string };

export type AssembledRun = {
  agent: { id: string; name: string };
  workflow: WorkflowInput & { workflow_id: string };
  tools: ObservedTool[];
  messages: Message[];
};

export function runsOfTrace(spans: StagedSpan[]): AssembledRun[] {
  const ordered = [...spans].sort(byStart);
  const children = new Map<string, StagedSpan[]>();
  for (const s of ordered) if (s.parentSpanId) (children.get(s.parentSpanId) ?? children.set(s.parentSpanId, []).get(s.parentSpanId)!).push(s);
  const below = (root: StagedSpan): StagedSpan[] => {
    const out: StagedSpan[] = [];
    const walk = (s: StagedSpan) => {
      for (const c of children.get(s.spanId) ?? []) {
        out.push(c);
        if (!isInvocation(c)) walk(c);
      }
    };
    walk(root);
    return out.sort(byStart);
  };
  let roots = ordered.filter(isInvocation);
  if (roots.length === 0) roots = ordered.filter((s) => s.parentSpanId === null && below(s).some(isToolCall));
  return roots.flatMap((root) => {
    const agent = agentOf(root);
    return agent ? [runOf(root, below(root), agent)] : [];
  });
}

function runOf(root: StagedSpan, descendants: StagedSpan[], agent: { id: string; name: string }): AssembledRun {
  const all = [root, ...descendants];
  const toolSpans = descendants.filter(isToolCall);
  const chats = descendants.filter((s) => operationOf(s) === "chat");
  const firstString = (keys: string[]) => {
    for (const s of all) for (const k of keys) {
      const v = stringAttr(s.attributes, k);
      if (v) return v;
    }
    return undefined;
  };
  const query = [...chats, root].flatMap(inputMessages).find((m) => m.role === "user")?.text ?? "";
  // The agent's answer: the invocation's own output, else the last chat call's.
  const answer = [root, ...[...chats].reverse()].flatMap(outputMessages).find((m) => m.role === "assistant")?.text;
  const skills = skillsOf(root.attributes["proctor.skills_activated"]);
  const workflow: AssembledRun["workflow"] = {
    workflow_id: `otel:${root.traceId}:${root.spanId}`,
    root_trace_id: root.traceId,
    user_id: firstString(["user.id", "enduser.id"]),
    thread_id: firstString(["gen_ai.conversation.id"]),
    query,
    steps: toolSpans.map(stepOf),
    outcome: outcomeOf(root),
    ...(skills.length ? { skills_activated: skills } : {}),
    ...(answer !== undefined ? { answer } : {}),
    created_at: isoOf(root.startNs),
  };
  // Messages repeat across chat calls (each sends the history): one id per role and text in a trace.
  const messages = new Map<string, Message>();
  const add = (role: string, text: string, ns: string) => {
    if ((role !== "user" && role !== "assistant") || !text) return;
    const id = "otel:" + createHash("sha256").update(`${root.traceId}\n${role}\n${text}`).digest("hex").slice(0, 32);
    if (!messages.has(id)) messages.set(id, { message_id: id, role, text, timestamp: isoOf(ns) });
  };
  for (const s of chats) {
    for (const m of inputMessages(s)) add(m.role, m.text, s.startNs);
    for (const m of outputMessages(s)) add(m.role, m.text, s.endNs);
  }
  return { agent, workflow, tools: toolsOf(all), messages: [...messages.values()].sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : 0)) };
}

const byStart = (a: StagedSpan, b: StagedSpan) => {
  const d = BigInt(a.startNs) - BigInt(b.startNs);
  return d < 0n ? -1 : d > 0n ? 1 : a.spanId < b.spanId ? -1 : a.spanId > b.spanId ? 1 : 0;
};

const isoOf = (ns: string) => new Date(Number(BigInt(ns) / 1_000_000n)).toISOString();

/** JSON text is parsed (OTLP carries structured arguments as text or as a kvlist); other text stays text. */
function jsonish(v: unknown): unknown {
  if (typeof v !== "string") return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

function stepOf(s: StagedSpan): WorkflowInput["steps"][number] {
  const step: WorkflowInput["steps"][number] = { tool: stringAttr(s.attributes, "gen_ai.tool.name")!, timestamp: isoOf(s.startNs) };
  if ("gen_ai.tool.call.arguments" in s.attributes) step.arguments = jsonish(s.attributes["gen_ai.tool.call.arguments"]);
  if ("gen_ai.tool.call.result" in s.attributes) step.result = jsonish(s.attributes["gen_ai.tool.call.result"]);
  if (s.statusCode === STATUS_ERROR) {
    const exception = s.events.find((e) => e.name === "exception")?.attributes ?? {};
    step.error = {
      type: stringAttr(s.attributes, "error.type") ?? stringAttr(exception, "exception.type") ?? "error",
      message: s.statusMessage ?? stringAttr(exception, "exception.message") ?? "",
    };
  }
  return step;
}

/** proctor.outcome when it names one; else the invocation's status: ERROR → failure, OK → success, unset → the engine's rules. */
function outcomeOf(root: StagedSpan): "success" | "failure" | undefined {
  const said = stringAttr(root.attributes, "proctor.outcome")?.toLowerCase();
  if (said === "success" || said === "failure") return said;
  if (root.statusCode === STATUS_ERROR) return "failure";
  if (root.statusCode === STATUS_OK) return "success";
  return undefined;
}

function skillsOf(v: unknown): string[] {
  const list = jsonish(v);
  return Array.isArray(list) ? list.filter((x): x is string => typeof x === "string" && x.length > 0 && x.length <= 128).slice(0, 100) : [];
}

type Said = { role: string; text: string };

/** Text of a GenAI message: `content` text, or the text parts of `parts` (gen_ai.input/output.messages). */
function textOf(m: unknown): string {
  if (typeof m === "string") return m;
  if (typeof m !== "object" || m === null) return "";
  const o = m as { content?: unknown; parts?: unknown; text?: unknown };
  if (typeof o.content === "string") return o.content;
  const parts = Array.isArray(o.parts) ? o.parts : Array.isArray(o.content) ? o.content : [];
  return parts
    .map((p) => (typeof p === "string" ? p : p && typeof p === "object" && (p.type === undefined || p.type === "text") ? (p.content ?? p.text ?? "") : ""))
    .filter((t): t is string => typeof t === "string" && t !== "")
    .join("\n");
}

function messagesIn(v: unknown, defaultRole: string): Said[] {
  const value = jsonish(v);
  if (typeof value === "string") return value ? [{ role: defaultRole, text: value }] : [];
  const list = Array.isArray(value) ? value : value && typeof value === "object" ? [value] : [];
  return list.map((m) => ({ role: String((m as { role?: unknown })?.role ?? defaultRole), text: textOf(m) })).filter((m) => m.text !== "");
}

/** gen_ai.input.messages; the older gen_ai.prompt attribute; the older gen_ai.{user,system,assistant}.message events. */
function inputMessages(s: StagedSpan): Said[] {
  if (s.attributes["gen_ai.input.messages"] !== undefined) return messagesIn(s.attributes["gen_ai.input.messages"], "user");
  if (s.attributes["gen_ai.prompt"] !== undefined) return messagesIn(s.attributes["gen_ai.prompt"], "user");
  return s.events.flatMap((e) => {
    const role = /^gen_ai\.(user|system|assistant)\.message$/.exec(e.name)?.[1];
    return role ? messagesIn(eventContent(e.attributes), role).map((m) => ({ ...m, role })) : [];
  });
}

/** gen_ai.output.messages; the older gen_ai.completion attribute and gen_ai.choice events. */
function outputMessages(s: StagedSpan): Said[] {
  if (s.attributes["gen_ai.output.messages"] !== undefined) return messagesIn(s.attributes["gen_ai.output.messages"], "assistant");
  if (s.attributes["gen_ai.completion"] !== undefined) return messagesIn(s.attributes["gen_ai.completion"], "assistant");
  return s.events
    .filter((e) => e.name === "gen_ai.choice")
    .flatMap((e) => messagesIn(e.attributes["message"] ?? eventContent(e.attributes), "assistant"));
}

const eventContent = (a: Attributes) => a["content"] ?? a["gen_ai.event.content"] ?? a["message"];

/** Tools seen: execute_tool spans' name and description, and gen_ai.tool.definitions where sent. */
function toolsOf(spans: StagedSpan[]): ObservedTool[] {
  const tools = new Map<string, ObservedTool>();
  const see = (name: unknown, description: unknown, parameters: unknown) => {
    if (typeof name !== "string" || !name.trim() || name.length > 128) return;
    const known = tools.get(name);
    const desc = typeof description === "string" ? description.slice(0, 8000) : "";
    const params = parameters && typeof parameters === "object" && !Array.isArray(parameters) ? (parameters as Record<string, unknown>) : {};
    if (!known) tools.set(name, { name, description: desc, parameters: params });
    else {
      if (!known.description && desc) known.description = desc;
      if (Object.keys(known.parameters).length === 0) known.parameters = params;
    }
  };
  for (const s of spans) {
    if (isToolCall(s)) see(s.attributes["gen_ai.tool.name"], s.attributes["gen_ai.tool.description"], undefined);
    const defs = jsonish(s.attributes["gen_ai.tool.definitions"]);
    for (const d of Array.isArray(defs) ? defs : []) {
      const f = d && typeof d === "object" ? ((d as { function?: object }).function ?? d) : {};
      const o = f as { name?: unknown; description?: unknown; parameters?: unknown };
      see(o.name, o.description, jsonish(o.parameters));
    }
  }
  return [...tools.values()];
}
