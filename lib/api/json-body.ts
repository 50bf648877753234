// Reads a JSON body with a byte limit and rejects text Postgres cannot store (NUL, lone
// surrogates) and pathological nesting before any schema or database sees it.
import { textProblem } from "../db/storable-text";
import { problems, type FieldError } from "./problem";

// lib/persona still imports it from here.

export const MAX_JSON_DEPTH = 64;

export async function readJsonBody(req: Request, limitBytes: number): Promise<unknown> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limitBytes) throw problems.tooLarge(limitBytes);
  const bytes = await readLimited(req, limitBytes);
  if (bytes.length === 0) throw problems.validation("The request body is empty; a JSON object is expected.");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw problems.validation("The request body is not valid UTF-8.");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw problems.validation(`The request body is not valid JSON: ${(e as Error).message}`);
  }
  // Valid JSON in valid UTF-8 can only spell a NUL or a lone surrogate as a \u escape, so a body
  // without such escapes needs only the nesting check (the common case, and the cheap one).
  const bad = findUnstorableText(value, "", 0, MAY_HOLD_UNSTORABLE.test(text));
  if (bad) throw problems.validation("The request body contains values that cannot be stored.", [bad]);
  return value;
}

async function readLimited(req: Request, limit: number): Promise<Uint8Array> {
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      await reader.cancel();
      throw problems.tooLarge(limit);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
}

const MAY_HOLD_UNSTORABLE = /\\u(?:0000|d[89a-f])/i;

/**
 * First string (value or key) that Postgres text/jsonb would refuse, or nesting beyond the limit.
 * `checkText` false checks only the nesting (for text known to hold no such characters).
 */
export function findUnstorableText(value: unknown, path = "", depth = 0, checkText = true): FieldError | null {
  if (depth > MAX_JSON_DEPTH) return { path: path || "/", message: `nesting deeper than ${MAX_JSON_DEPTH} levels` };
  if (typeof value === "string") {
    const p = checkText ? textProblem(value) : null;
    return p ? { path: path || "/", message: p } : null;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (!checkText && (value[i] === null || typeof value[i] !== "object")) continue;
      const r = findUnstorableText(value[i], `${path}/${i}`, depth + 1, checkText);
      if (r) return r;
    }
    return null;
  }
  if (value && typeof value === "object") {
    for (const k in value) {
      const kp = checkText ? textProblem(k) : null;
      if (kp) return { path: `${path}/${k}`, message: `key ${kp}` };
      const v = (value as Record<string, unknown>)[k];
      if (!checkText && (v === null || typeof v !== "object")) continue;
      const r = findUnstorableText(v, `${path}/${k}`, depth + 1, checkText);
      if (r) return r;
    }
  }
  return null;
}
