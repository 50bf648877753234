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
  // The path is written only for a problem: writing one for every node of a batch of runs would
  // be most of the walk's cost. `at` holds the keys down to the node being looked at.
  const at: (string | number)[] = [];
  const message = problemAt(value, depth, checkText, at);
  if (message === null) return null;
  const where = path + at.map((k) => `/${k}`).join("");
  return { path: where || "/", message };
}

/** The first problem's message, `at` left holding the keys down to it; null when there is none. */
function problemAt(value: unknown, depth: number, checkText: boolean, at: (string | number)[]): string | null {
  if (depth > MAX_JSON_DEPTH) return `nesting deeper than ${MAX_JSON_DEPTH} levels`;
  if (typeof value === "string") return checkText ? textProblem(value) : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      if (!checkText && (v === null || typeof v !== "object")) continue;
      at.push(i);
      const p = problemAt(v, depth + 1, checkText, at);
      if (p !== null) return p;
      at.pop();
    }
    return null;
  }
  if (value && typeof value === "object") {
    for (const k in value) {
      const keyProblem = checkText ? textProblem(k) : null;
      if (keyProblem) {
        at.push(k);
        return `key ${keyProblem}`;
      }
      const v = (value as Record<string, unknown>)[k];
      if (!checkText && (v === null || typeof v !== "object")) continue;
      at.push(k);
      const p = problemAt(v, depth + 1, checkText, at);
      if (p !== null) return p;
      at.pop();
    }
  }
  return null;
}
