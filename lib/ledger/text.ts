// Text rules shared by every ledger string: non-blank after a Rust-style trim,
// a limit in UTF-8 bytes of the untrimmed value, stored exactly as given.
import { textProblem } from "../db/storable-text";

// Rust's `str::trim` strips Unicode White_Space. JavaScript's trim differs: it also strips
// U+FEFF (not White_Space) and keeps U+0085 (White_Space). So the set is spelled out here.
const NOT_WHITE_SPACE = /[^\u0009-\u000D\u0020\u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]/u;

// The settings form validates ledger keys in the browser, which has no Buffer.
const encoder = typeof Buffer === "undefined" ? new TextEncoder() : null;
export const utf8Bytes = (s: string): number => (encoder ? encoder.encode(s).length : Buffer.byteLength(s, "utf8"));

export const isBlank = (s: string): boolean => !NOT_WHITE_SPACE.test(s);

/**
 * Why a string is not acceptable ledger text, or null. NUL and lone surrogates are refused
 * here too (not only in the HTTP body reader) because the core is also called directly.
 */
export function ledgerTextProblem(s: string, limitBytes: number): string | null {
  const unstorable = textProblem(s);
  if (unstorable) return unstorable;
  if (isBlank(s)) return "must contain a non-whitespace character";
  if (utf8Bytes(s) > limitBytes) return `must be at most ${limitBytes} UTF-8 bytes`;
  return null;
}

/** UTF-8 byte order (the same as code-point order), not JavaScript's UTF-16 `<`. */
export const compareBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
