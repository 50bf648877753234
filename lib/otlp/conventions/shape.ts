// The common shape every telemetry convention's span is read into (./index.ts picks the
// convention), and the readers the conventions share: JSON text, messages and their parts, the
// tool calls a model asked for, a failed span's error. The mapping to runs (../map.ts) reads only
// this shape, so a convention is added by writing one reader, never by touching the assembly.
import { findUnstorableText } from "../../db/storable-text";
import { stringAttr, STATUS_ERROR, type Attributes, type SpanEvent, type StagedSpan } from "../spans";

export type Role = "invocation" | "tool" | "chat" | "other";

/** A message as the run reads it: who said it and its text parts joined. */
export type Said = { role: string; text: string };

/** A tool call the model asked for, in its output: the call id, the tool and its arguments where the trace carries them. */
export type AskedCall = { id?: string; name?: string; arguments?: unknown };

export type StepError = { type: string; message: string };

export type ObservedTool = { name: string; description: string; parameters: Record<string, unknown> };

export type SpanShape = {
  role: Role;
  /** The agent an invocation names: an explicit id (never a framework default) and the framework's agent name. */
  agentId?: string;
  agentName?: string;
  user?: string;
  thread?: string;
  /** Messages in: a chat call's prompt, an invocation's request. */
  input: Said[];
  /** Messages out: a chat call's completion, an invocation's answer. */
  output: Said[];
  /** A tool call's name, call id, arguments and result (undefined: the span does not carry it). */
  tool?: { name: string; callId?: string; arguments?: unknown; result?: unknown };
  /** The tool calls this span's output asks for, in the model's order. */
  asked: AskedCall[];
  /**
   * How many tool calls its input already holds (the conversation so far): a later model call
   * holds more, so this orders model calls whose times cannot (starts in one millisecond).
   */
  priorCalls: number;
  /** The model step (loop cycle) this span is, or belongs to, where the convention numbers them. */
  stepIndex?: number;
  /** Set when the span's status is ERROR. */
  error?: StepError;
  tools: ObservedTool[];
};

/** Every span's shape starts as this one object layout (a literal, not spreads: the mapping builds one per span). */
export const emptyShape = (role: Role, user?: string, thread?: string, error?: StepError): SpanShape => ({
  role, user, thread, input: [], output: [], tool: undefined, asked: [], priorCalls: 0, stepIndex: undefined, error, tools: [],
});

/** JSON text is parsed (OTLP carries structured values as text or as a kvlist); other text stays text. */
export function jsonish(v: unknown): unknown {
  if (typeof v !== "string") return v;
  const c = v[firstNonSpace(v)];
  if (c !== "{" && c !== "[" && c !== '"' && !(c >= "0" && c <= "9") && c !== "-" && v !== "true" && v !== "false" && v !== "null") return v;
  let parsed: unknown;
  try {
    parsed = JSON.parse(v);
  } catch {
    return v;
  }
  // Nesting deeper than stored JSON may be stays text: runs carry it as the exporter wrote it.
  return typeof parsed === "object" && parsed !== null && findUnstorableText(parsed, "", 0, false) ? v : parsed;
}

/** The index of the first character that is not JSON whitespace (the text's length when none is). */
function firstNonSpace(v: string): number {
  let i = 0;
  for (let c = v.charCodeAt(0); c === 32 || c === 10 || c === 13 || c === 9; c = v.charCodeAt(++i));
  return i;
}

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The first of `keys` that holds text (or a number). */
export function firstAttr(attrs: Attributes, keys: readonly string[]): string | undefined {
  for (const k of keys) {
    const v = stringAttr(attrs, k);
    if (v) return v;
  }
  return undefined;
}

/**
 * Who and which conversation, in every convention: the same keys are read from every span (they
 * are namespaced, so no convention's key means another thing in another). In this order:
 * OpenTelemetry's user.id / enduser.id and gen_ai.conversation.id, OpenInference's (and Strands')
 * session.id, then what the frameworks write themselves: AI SDK 6 telemetry metadata, AI SDK 7's
 * runtime context, Mastra's metadata (its memory resource is the account, its thread the thread).
 */
export const USER_KEYS = [
  "user.id",
  "enduser.id",
  "ai.telemetry.metadata.userId",
  "ai.settings.context.userId",
  "mastra.metadata.userId",
  "mastra.metadata.resourceId",
] as const;
export const THREAD_KEYS = [
  "gen_ai.conversation.id",
  "session.id",
  "ai.telemetry.metadata.sessionId",
  "ai.telemetry.metadata.threadId",
  "ai.settings.context.sessionId",
  "mastra.metadata.threadId",
] as const;

/** A span's shape with its role, the account and thread it names and its error; the convention's reader fills the rest. */
export const shapeWithIdentity = (role: Role, attrs: Attributes, error?: StepError): SpanShape =>
  emptyShape(role, firstAttr(attrs, USER_KEYS), firstAttr(attrs, THREAD_KEYS), error);

/** Text of one message part: a string, or a text part (`{type: "text", content|text}`, Strands' `{text}`). */
function partText(p: unknown): string {
  if (typeof p === "string") return p;
  if (!isRecord(p)) return "";
  if (p.type !== undefined && p.type !== "text" && p.type !== "output_text" && p.type !== "input_text") return "";
  const t = p.content ?? p.text;
  return typeof t === "string" ? t : "";
}

/** Text of a message: its `content` text, or the text parts of `parts` / `content`. */
export function textOf(m: unknown): string {
  if (typeof m === "string") return m;
  if (!isRecord(m)) return "";
  if (typeof m.content === "string") return m.content;
  if (typeof m.text === "string" && m.role === undefined) return m.text;
  const parts = Array.isArray(m.parts) ? m.parts : Array.isArray(m.content) ? m.content : [];
  return parts.map(partText).filter((t) => t !== "").join("\n");
}

const isMessage = (v: unknown) => isRecord(v) && typeof v.role === "string";

/**
 * Messages in a value: JSON text or a value; a list of messages (`{role, content|parts}`), one
 * message, a list of parts (one message of `defaultRole`), or plain text. Messages without text
 * (tool calls, tool results) are left out.
 */
export function messagesIn(v: unknown, defaultRole: string): Said[] {
  const value = jsonish(v);
  if (typeof value === "string") return value ? [{ role: defaultRole, text: value }] : [];
  let list: unknown[];
  if (Array.isArray(value)) list = value.some(isMessage) ? value : [{ role: defaultRole, parts: value }];
  else if (isRecord(value)) list = [value];
  else return [];
  return list
    .map((m) => ({ role: String((isRecord(m) && typeof m.role === "string" ? m.role : undefined) ?? defaultRole), text: textOf(m) }))
    .filter((m) => m.text !== "");
}

/**
 * The tool calls asked for in messages or parts: GenAI `tool_call` parts (`id`, `name`,
 * `arguments`), Strands' `toolUse` blocks (`toolUseId`, `input`), AI SDK `tool-call` parts and
 * tool calls (`toolCallId`, `toolName`, `input` | `args`; Mastra's the same), OpenAI's
 * `tool_calls` (`id`, `function.name|arguments`) and Responses `function_call` items (`call_id`).
 */
export function callsIn(v: unknown): AskedCall[] {
  const out: AskedCall[] = [];
  visitCalls(jsonish(v), 0, out);
  return out;
}

const CALL_HOLDERS = ["parts", "content", "tool_calls", "toolCalls", "message"];

function visitCalls(x: unknown, depth: number, out: AskedCall[]) {
  if (depth > 4) return;
  if (Array.isArray(x)) {
    for (const e of x) visitCalls(e, depth + 1, out);
    return;
  }
  if (!isRecord(x)) return;
  if (isRecord(x.toolUse)) return visitCalls({ type: "toolUse", ...x.toolUse }, depth, out);
  const type = x.type;
  if (type === "tool_call" || type === "function_call" || type === "toolUse" || type === "tool-call" || typeof x.toolCallId === "string" || typeof x.toolUseId === "string") {
    const fn = isRecord(x.function) ? x.function : {};
    out.push({
      id: str(x.call_id ?? x.toolUseId ?? x.toolCallId ?? x.id),
      name: str(x.name ?? x.toolName ?? fn.name),
      arguments: jsonish(x.arguments ?? x.input ?? x.args ?? fn.arguments),
    });
    return;
  }
  if (isRecord(x.function) && (typeof x.id === "string" || typeof x.function.name === "string")) {
    out.push({ id: str(x.id), name: str(x.function.name), arguments: jsonish(x.function.arguments) });
    return;
  }
  for (const key of CALL_HOLDERS) if (key in x) visitCalls(jsonish(x[key]), depth + 1, out);
}

const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);

/**
 * A tool result as the frameworks wrap it: Strands' content blocks (`[{json: …}]`, `[{text: …}]`)
 * become the value they hold (text parsed when it is JSON); anything else stays as it is.
 */
export function unwrapResult(v: unknown): unknown {
  const value = jsonish(v);
  if (!Array.isArray(value) || value.length === 0 || !value.every((b) => isRecord(b) && ("json" in b || typeof b.text === "string"))) return value;
  const values = value.map((b) => ("json" in b ? b.json : jsonish(b.text)));
  if (values.length === 1) return values[0];
  return values.every((x) => typeof x === "string") ? values.join("\n") : values;
}

const PLACEHOLDER_TYPES = new Set(["_OTHER", "unknown"]);
/** `Error: text` and `TypeError: text`, as JavaScript prints an error. */
const PRINTED = /^([A-Za-z_$][\w$.]*(?:Error|Exception)|Error): ([\s\S]+)$/;

/**
 * Why a span failed, when its status is ERROR: the type from `error.type` (not its placeholders
 * `_OTHER` / `unknown`), else the first exception event's `exception.type`, else the class a
 * printed error names, else "error"; the message from the status message (or `error.message`, the
 * exception's message) without a stack trace that follows it after a blank line, and without a
 * printed error's `Error: ` prefix.
 */
export function errorOf(s: StagedSpan, message?: string): StepError | undefined {
  if (s.statusCode !== STATUS_ERROR) return undefined;
  const exception = firstEvent(s, "exception") ?? {};
  let text = message ?? s.statusMessage ?? stringAttr(s.attributes, "error.message") ?? stringAttr(exception, "exception.message") ?? "";
  // The first blank line with a frame ("\n    at ") after it; two linear patterns, not one polynomial one.
  const blank = /\n[^\S\n]*\n/.exec(text);
  if (blank && blank.index > 0 && /\n[^\S\n]+at /.test(text.slice(blank.index + blank[0].length))) text = text.slice(0, blank.index);
  text = text.trim();
  let type = stringAttr(s.attributes, "error.type") ?? undefined;
  if (type && PLACEHOLDER_TYPES.has(type)) type = undefined;
  type ??= stringAttr(exception, "exception.type") ?? undefined;
  const printed = PRINTED.exec(text);
  if (printed && (!type || type === printed[1])) {
    type = printed[1];
    text = printed[2].trim();
  }
  return { type: type ?? "error", message: text.slice(0, 4000) };
}

/** Tool definitions: GenAI / OpenAI (`{name, description, parameters}` or under `function`), AI SDK's `inputSchema`, bare names. */
export function toolDefinitions(v: unknown): ObservedTool[] {
  const list = jsonish(v);
  if (!Array.isArray(list)) return [];
  return list.flatMap((raw) => {
    const d = jsonish(raw);
    if (typeof d === "string") return [{ name: d, description: "", parameters: {} }];
    if (!isRecord(d)) return [];
    const f = isRecord(d.function) ? d.function : d;
    if (typeof f.name !== "string") return [];
    const parameters = jsonish(f.parameters ?? f.inputSchema ?? f.input_schema);
    return [{ name: f.name, description: typeof f.description === "string" ? f.description : "", parameters: isRecord(parameters) ? parameters : {} }];
  });
}

/** Events of one name, in order. */
export const eventsNamed = (s: StagedSpan, name: string): SpanEvent[] => s.events.filter((e) => e.name === name);

/** The attributes of the span's first event of this name. */
export const firstEvent = (s: StagedSpan, name: string): Attributes | undefined => s.events.find((e) => e.name === name)?.attributes;
