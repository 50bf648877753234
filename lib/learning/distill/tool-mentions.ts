// The undeclared-tool check of the validation gate: the
// reference only caught "Call `x`", so "Use `delete_account`" and "Invoke `x`" passed. Here
// every backticked identifier must be a declared tool or a field of one, and every call-like
// mention (`call x()`, `use x`, `invoke x`, `x(...)`, backticked or not) must be a declared
// tool. Bare words count only when they look like code (snake_case, camelCase or followed by
// parentheses), so ordinary prose ("Use the order id", "value(s)") never trips it.
import { parseJsonText } from "../capture/canonical";
import { stepErrorType, type SampleRun } from "./sample-run";

export type ToolMention = { name: string; call: boolean };

const IDENT = String.raw`[A-Za-z_][\w-]*`;
/** Backtick spans, paired in order (so the text between two spans is never read as one). */
const SPAN = /\x60([^\x60\n]+)\x60/g;
/** Read from the span's trimmed text: spaces on both sides of an optional group were quadratic. */
const SPAN_NAME = new RegExp(String.raw`^(${IDENT}(?:\.${IDENT})*)\s*(\([^)]*\))?$`);
const VERB = new RegExp(String.raw`\b(use|uses|using|invoke|invokes|invoking|call|calls|calling)\s+(?:the\s+)?(\x60)?(${IDENT})`, "gi");
const IDENT_ONLY = new RegExp(`^${IDENT}$`);
/** After the start or a character no identifier holds (consumed: a lookbehind here could not be proved linear). */
const CALL = new RegExp(String.raw`(?:^|[^\w.\x60-])(${IDENT})\(([^()\n]*)\)`, "g");

/** snake_case, camelCase or with a digit: an identifier, not an English word. */
const codeLike = (w: string) => /_|[a-z][A-Z]|[A-Za-z]\d/.test(w);
/** `name(args)` reads as a call, not as "value(s)" or "amount(in cents)". */
const callArgs = (args: string) => args.trim() === "" || /^\s*\.\.\.\s*$/.test(args) || /[=:"',]/.test(args);

/**
 * Every tool-like mention in `text`, in document order (a name may repeat). `call`: invoked
 * ("call"/"invoke" before it, or parentheses after it), so it must be a tool; otherwise a field
 * of a tool may do ("Use `order_id`").
 */
export function toolMentions(text: string): ToolMention[] {
  const out: ToolMention[] = [];
  for (const m of text.matchAll(SPAN)) {
    const name = SPAN_NAME.exec(m[1].trim());
    if (name) out.push({ name: name[1], call: name[2] !== undefined });
  }
  for (const m of text.matchAll(VERB)) {
    const invoked = !/^us/i.test(m[1]);
    if (m[2] || codeLike(m[3])) out.push({ name: m[3], call: invoked });
  }
  for (const m of text.matchAll(CALL)) if (codeLike(m[1]) || callArgs(m[2])) out.push({ name: m[1], call: true });
  return out;
}

/** Values a document may name without being a tool: JSON literals and type names. */
const LITERALS = new Set(["true", "false", "null", "string", "number", "integer", "boolean", "object", "array"]);

function collectNames(value: unknown, into: Set<string>, withValues: boolean, depth = 0): void {
  const v = parseJsonText(value);
  if (depth > 6 || v === null || v === undefined) return;
  if (Array.isArray(v)) v.forEach((x) => collectNames(x, into, withValues, depth + 1));
  else if (typeof v === "object") {
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      into.add(k);
      collectNames(x, into, withValues, depth + 1);
    }
  } else if (withValues && typeof v === "string" && IDENT_ONLY.test(v)) into.add(v);
}

/** Property names in a tool's JSON-schema `parameters`, at any depth. */
function schemaFields(schema: unknown, into: Set<string>, depth = 0): void {
  if (!schema || typeof schema !== "object" || depth > 6) return;
  const s = schema as Record<string, unknown>;
  if (s.properties && typeof s.properties === "object") {
    for (const [k, sub] of Object.entries(s.properties as Record<string, unknown>)) {
      into.add(k);
      schemaFields(sub, into, depth + 1);
    }
  }
  if (s.items) schemaFields(s.items, into, depth + 1);
}

/** Each declared tool's parameter names, from the agent's toolbox declarations. */
export function toolFieldsOf(tools: unknown): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const t of Array.isArray(tools) ? tools : []) {
    if (!t || typeof t !== "object" || typeof (t as { name?: unknown }).name !== "string") continue;
    const fields = new Set<string>();
    schemaFields((t as { parameters?: unknown }).parameters, fields);
    out.set((t as { name: string }).name.trim(), fields);
  }
  return out;
}

/**
 * What the document may name besides its tools: the declared parameters of its tools, and what
 * their sampled calls show (argument and result keys, identifier-like result values such as a
 * status, error types).
 */
export function knownFields(tools: ReadonlySet<string>, declaredFields: ReadonlyMap<string, ReadonlySet<string>>, runs: SampleRun[]): Set<string> {
  const names = new Set(LITERALS);
  for (const t of tools) for (const f of declaredFields.get(t) ?? []) names.add(f);
  for (const run of runs) {
    for (const step of run.steps) {
      if (!tools.has(step.tool)) continue;
      collectNames(step.arguments, names, false);
      collectNames(step.result, names, true);
      const type = stepErrorType(step);
      if (type) names.add(type);
    }
  }
  return names;
}

/** The gate's reasons: calls of undeclared tools, then other undeclared names, each once. */
export function undeclaredToolReasons(text: string, tools: ReadonlySet<string>, fields: ReadonlySet<string>): string[] {
  const calls = new Set<string>();
  const mentions = new Set<string>();
  for (const m of toolMentions(text)) {
    if (m.call) {
      if (!tools.has(m.name)) calls.add(m.name);
    } else if (!m.name.split(".").every((part) => tools.has(part) || fields.has(part))) mentions.add(m.name);
  }
  for (const c of calls) mentions.delete(c);
  return [...[...calls].map((n) => `procedure calls undeclared tool: ${n}`), ...[...mentions].map((n) => `procedure names undeclared tool or field: ${n}`)];
}
