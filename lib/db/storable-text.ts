// Text PostgreSQL's text and jsonb types refuse: a NUL character or a lone UTF-16 surrogate.
// Pure (no server imports): the ledger's text rules also run in the browser.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why PostgreSQL cannot store `s`, or null. */
export function textProblem(s: string): string | null {
  if (s.includes("\u0000")) return "contains a NUL character";
  if (LONE_SURROGATE.test(s)) return "contains a lone UTF-16 surrogate";
  return null;
}
