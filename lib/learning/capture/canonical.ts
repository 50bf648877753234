// Trajectory identity: the canonical signature of a run's tool calls and its sha256 hash.
// Follows the reference rules (order by timestamps when every step has one, collapse
// retries, ignore argument values, hash sorted-key compact ASCII JSON) with two deliberate
// improvements over the reference's version 1:
//   - the argument shape includes nested key paths, and arguments that arrive as a JSON
//     string are parsed first (the reference saw only top-level keys, and none for strings);
//   - the error class is the error's type (`error.type`, else "error"), not a yes/no flag.
// A flat, error-free trajectory hashes exactly as in the reference.
import { hash } from "node:crypto";
import { findUnstorableText, MAY_HOLD_UNSTORABLE } from "../../db/storable-text";

/** Bump when any rule below changes; stored beside every hash (see learning:backfill-hashes). */
export const CANONICAL_VERSION = 2;

export type SignatureUnit = {
  tool: string;
  arg_keys: string[];
  errored: boolean;
  /** Present only on errored units. */
  error_class?: string;
  /** Attempts folded into this unit; kept for display, never hashed. */
  retry_count: number;
};

export type StepLike = { tool?: unknown; arguments?: unknown; error?: unknown; timestamp?: unknown };

/** Nesting beyond this depth counts as a leaf: keeps hostile JSON-string arguments cheap. */
const MAX_PATH_DEPTH = 32;

/** Code-point order (as Python sorts), not UTF-16 unit order. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (astral code points) must sort after U+E000..U+FFFF: shift both ranges.
    if (x >= 0xd800 && y >= 0xd800) {
      x += x >= 0xe000 ? -0x800 : 0x2000;
      y += y >= 0xe000 ? -0x800 : 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Objects (and arrays of objects) parsed out of a JSON string; anything else as is. */
export function parseJsonText(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const t = value.trim();
  if (!t.startsWith("{") && !t.startsWith("[")) return value;
  try {
    return JSON.parse(t);
  } catch {
    return value;
  }
}

/**
 * Why JSON-text arguments cannot be used once parsed, or null: their keys are stored in the
 * signature and their keys and values reach distilled skills, so a NUL or a lone surrogate
 * spelled as an escape inside the text would make every write of the run fail.
 */
export function parsedArgumentsProblem(value: unknown): string | null {
  if (typeof value !== "string" || !MAY_HOLD_UNSTORABLE.test(value)) return null;
  const parsed = parseJsonText(value);
  const bad = parsed === value ? null : findUnstorableText(parsed);
  if (!bad) return null;
  // The offending key is not echoed: it is the unprintable text itself.
  if (bad.message.startsWith("key ")) return `JSON text with a key that ${bad.message.slice(4)}`;
  return bad.message.startsWith("nesting") ? `JSON text with ${bad.message}` : `JSON text with a value that ${bad.message}`;
}

/**
 * The argument-key shape: sorted, distinct key paths of the arguments object.
 * - A key whose value is a scalar, null, an empty object or an empty array contributes its path
 *   (`order_id`, `customer.id`).
 * - A non-empty object contributes the paths of its keys, never itself (leaf paths only).
 * - An array contributes `key[].<path>` for the keys of its object elements (union over the
 *   elements, so `items[].sku`); scalar elements (or an empty array) make the array a leaf `key`,
 *   nested arrays add another `[]`.
 * Values never matter. Arguments that are not an object (after parsing a JSON string) give [].
 */
export function argKeyShape(args: unknown): string[] {
  const parsed = parseJsonText(args);
  if (!isPlainObject(parsed)) return [];
  const keys = Object.keys(parsed);
  // Flat arguments (most tool calls): the shape is the keys themselves, already distinct.
  let flat = true;
  for (const k of keys) {
    const v = parsed[k];
    if (typeof v === "object" && v !== null) {
      flat = false;
      break;
    }
  }
  if (flat) return sortCodePoints(keys);
  const out = new Set<string>();
  for (const k of keys) collectPaths(parsed[k], k, 1, out);
  return sortCodePoints([...out]);
}

/**
 * Sorts in place by code point. A few keys (nearly every call) are insertion-sorted: the
 * built-in sort allocated more per call than the rest of a step's shape.
 */
function sortCodePoints(keys: string[]): string[] {
  if (keys.length > 16) return keys.sort(compareCodePoints);
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i];
    let j = i - 1;
    for (; j >= 0 && compareCodePoints(keys[j], k) > 0; j--) keys[j + 1] = keys[j];
    keys[j + 1] = k;
  }
  return keys;
}

function collectPaths(value: unknown, path: string, depth: number, out: Set<string>) {
  if (depth >= MAX_PATH_DEPTH) {
    out.add(path);
    return;
  }
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0) out.add(path);
    for (const k of keys) collectPaths(value[k], `${path}.${k}`, depth + 1, out);
    return;
  }
  if (Array.isArray(value)) {
    let leaf = value.length === 0;
    for (const el of value) {
      if (isPlainObject(el) || (Array.isArray(el) && el.length > 0)) collectPaths(el, `${path}[]`, depth + 1, out);
      else leaf = true;
    }
    if (leaf) out.add(path);
    return;
  }
  out.add(path);
}

/** The error class of a step: its `error.type`, "error" for any other failure, null when it did not fail. */
export function errorClass(error: unknown): string | null {
  if (error === null || error === undefined || error === false || error === "" || error === 0) return null;
  if (isPlainObject(error) && typeof error.type === "string" && error.type.trim() !== "") return error.type.trim();
  return "error";
}

const ISO_TIMESTAMP = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?))?(Z|[+-]\d{2}:?\d{2})?$/i;

/** `YYYY-MM-DDTHH:MM:SS.sssZ`, as toISOString writes it (most agents' timestamps): Date.parse reads it as is. */
function isIsoUtcMillis(s: string): boolean {
  if (s.length !== 24 || s.charCodeAt(23) !== 90 /* Z */) return false;
  for (let i = 0; i < 23; i++) {
    const c = s.charCodeAt(i);
    const expected = i === 4 || i === 7 ? 45 /* - */ : i === 10 ? 84 /* T */ : i === 13 || i === 16 ? 58 /* : */ : i === 19 ? 46 /* . */ : -1;
    if (expected === -1 ? c < 48 || c > 57 : c !== expected) return false;
  }
  return true;
}

/** Milliseconds since the epoch of an ISO-8601 text, or null. A timestamp without offset is UTC. */
export function parseTimestamp(value: unknown): number | null {
  if (typeof value !== "string") return null;
  if (isIsoUtcMillis(value)) {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? null : ms;
  }
  const m = ISO_TIMESTAMP.exec(value.trim());
  if (!m) return null;
  const [, date, time = "00:00", zone = "Z"] = m;
  const offset = zone.toUpperCase() === "Z" ? "Z" : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  const ms = Date.parse(`${date}T${time}${offset}`);
  return Number.isNaN(ms) ? null : ms;
}

/** Steps in identity order: array order, unless every step has a parseable timestamp. */
export function orderSteps<S extends StepLike>(steps: readonly S[]): S[] {
  const at: number[] = [];
  let ordered = true;
  for (const step of steps) {
    const t = parseTimestamp(isPlainObject(step) ? step.timestamp : null);
    if (t === null) return [...steps];
    if (at.length > 0 && t < at[at.length - 1]) ordered = false;
    at.push(t);
  }
  // Steps sent in time order (nearly all runs) keep it: sorting by (timestamp, index) changes nothing.
  if (ordered) return [...steps];
  return steps.map((step, index) => ({ step, index })).sort((a, b) => at[a.index] - at[b.index] || a.index - b.index).map((s) => s.step);
}

/** The canonical signature: ordered units with retries folded in. */
export function canonicalSignature(steps: readonly StepLike[]): SignatureUnit[] {
  const units: SignatureUnit[] = [];
  for (const raw of orderSteps(steps)) {
    const step: StepLike = isPlainObject(raw) ? raw : {};
    const tool = typeof step.tool === "string" ? step.tool.trim() : "";
    const arg_keys = argKeyShape(step.arguments);
    const cls = errorClass(step.error);
    const prev = units[units.length - 1];
    // A retry: the previous attempt of the same call with the same shape failed.
    if (prev && prev.errored && prev.tool === tool && sameKeys(prev.arg_keys, arg_keys)) {
      prev.retry_count += 1;
      prev.errored = cls !== null;
      if (cls === null) delete prev.error_class;
      else prev.error_class = cls;
      continue;
    }
    units.push({ tool, arg_keys, errored: cls !== null, ...(cls !== null ? { error_class: cls } : {}), retry_count: 1 });
  }
  return units;
}

function sameKeys(a: string[], b: string[]) {
  return a.length === b.length && a.every((k, i) => k === b[i]);
}

const NON_ASCII = /[\u007f-\uffff]/;
const NON_ASCII_ALL = /[\u007f-\uffff]/g;

/**
 * JSON as Python's json.dumps(sort_keys=True, separators=(",", ":")) writes it: object keys
 * sorted by code point, no spaces, and every character outside printable ASCII as \uXXXX.
 */
export function pythonJson(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") {
    const json = JSON.stringify(value);
    return NON_ASCII.test(json) ? json.replace(NON_ASCII_ALL, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0")) : json;
  }
  if (typeof value === "number" || typeof value === "boolean") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(",")}]`;
  const keys = Object.keys(value as object).filter((k) => (value as Record<string, unknown>)[k] !== undefined).sort(compareCodePoints);
  return `{${keys.map((k) => `${pythonJson(k)}:${pythonJson((value as Record<string, unknown>)[k])}`).join(",")}}`;
}

/** The bytes that are hashed for one unit (retry_count excluded): pythonJson of {arg_keys, error_class?, errored, tool}, spelled out. */
export function unitJson(u: SignatureUnit): string {
  const keys = u.arg_keys.map(pythonJson).join(",");
  const cls = u.errored ? `"error_class":${pythonJson(u.error_class ?? "error")},` : "";
  return `{"arg_keys":[${keys}],${cls}"errored":${u.errored},"tool":${pythonJson(u.tool)}}`;
}

/** sha256 (lowercase hex) of the units' bytes; null when the run made no tool calls. */
const hashOfUnits = (units: string[]) => (units.length === 0 ? null : hash("sha256", `[${units.join(",")}]`, "hex"));

export type CanonicalIdentity = {
  signature: SignatureUnit[];
  /** The signature as JSON, written from the hashed bytes (retry counts added): ingestion stores it as is. */
  signatureJson: string;
  hash: string | null;
  stepCount: number;
  tools: string[];
  version: number;
};

export function canonicalIdentity(steps: readonly StepLike[]): CanonicalIdentity {
  const signature = canonicalSignature(steps);
  const units = signature.map(unitJson);
  const signatureJson = `[${units.map((u, i) => `${u.slice(0, -1)},"retry_count":${signature[i].retry_count}}`).join(",")}]`;
  return { signature, signatureJson, hash: hashOfUnits(units), stepCount: signature.length, tools: signature.map((u) => u.tool), version: CANONICAL_VERSION };
}

/** For distinct-query counting: trim, lower-case, collapse whitespace runs. */
export function normalizeQuery(query: string | null | undefined): string {
  if (!query) return "";
  return query.trim().toLowerCase().replace(/\s+/g, " ");
}
