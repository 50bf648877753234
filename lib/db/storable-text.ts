// Text PostgreSQL's text and jsonb types refuse: a NUL character or a lone UTF-16 surrogate.
// Pure (no server imports): the ledger's text rules also run in the browser.
import type { FieldError } from "../errors";

export const MAX_JSON_DEPTH = 64;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why PostgreSQL cannot store `s`, or null. */
export function textProblem(s: string): string | null {
  if (s.includes("\u0000")) return "contains a NUL character";
  if (LONE_SURROGATE.test(s)) return "contains a lone UTF-16 surrogate";
  return null;
}

/** Valid JSON text can only spell a NUL or a lone surrogate as one of these escapes. */
export const MAY_HOLD_UNSTORABLE = /\\u(?:0000|d[89a-f])/i;

/**
 * First string (value or key) that Postgres text/jsonb would refuse, or nesting beyond the limit.
 * `checkText` false checks only the nesting (for text known to hold no such characters).
 */
export function findUnstorableText(value: unknown, path = "", depth = 0, checkText = true): FieldError | null {
  // The common answer (nothing wrong) is found without writing a path for every node: on a batch
  // of runs those paths were most of the walk's cost. Only a problem is walked again, with paths.
  return storable(value, depth, checkText) ? null : locate(value, path, depth, checkText);
}

function storable(value: unknown, depth: number, checkText: boolean): boolean {
  if (depth > MAX_JSON_DEPTH) return false;
  if (typeof value === "string") return !checkText || textProblem(value) === null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      if ((checkText || (v !== null && typeof v === "object")) && !storable(v, depth + 1, checkText)) return false;
    }
    return true;
  }
  if (value && typeof value === "object") {
    for (const k in value) {
      if (checkText && textProblem(k)) return false;
      const v = (value as Record<string, unknown>)[k];
      if ((checkText || (v !== null && typeof v === "object")) && !storable(v, depth + 1, checkText)) return false;
    }
  }
  return true;
}

function locate(value: unknown, path: string, depth: number, checkText: boolean): FieldError | null {
  if (depth > MAX_JSON_DEPTH) return { path: path || "/", message: `nesting deeper than ${MAX_JSON_DEPTH} levels` };
  if (typeof value === "string") {
    const p = checkText ? textProblem(value) : null;
    return p ? { path: path || "/", message: p } : null;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (!checkText && (value[i] === null || typeof value[i] !== "object")) continue;
      const r = locate(value[i], `${path}/${i}`, depth + 1, checkText);
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
      const r = locate(v, `${path}/${k}`, depth + 1, checkText);
      if (r) return r;
    }
  }
  return null;
}
