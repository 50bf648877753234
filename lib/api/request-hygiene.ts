// Request hygiene in one place: what a request's address may hold before anything reads it.
// Path segments and query values must be valid percent-encoded UTF-8 without NUL characters or
// lone surrogates (PostgreSQL refuses both; Next.js cannot even route a bad encoding and answers
// a bare 500), and a path may not hold "." or ".." segments (they would reach another route than
// the one named). Pure, so the Node gate (lib/api/gate.ts) and the route wrapper share it.
import { textProblem } from "../db/storable-text";
import type { FieldError } from "../errors";

/** One percent-encoded component decoded, or why it cannot be. `+` is a space in query strings. */
function decodeComponent(raw: string, plusIsSpace: boolean): { text: string } | { problem: string } {
  let text: string;
  try {
    text = decodeURIComponent(plusIsSpace ? raw.replace(/\+/g, " ") : raw);
  } catch {
    return { problem: "is not valid percent-encoded UTF-8" };
  }
  const p = textProblem(text);
  return p ? { problem: p } : { text };
}

/** The first problem of a raw path (as sent, before decoding), as a field error, or null. */
export function pathProblem(rawPath: string): FieldError | null {
  const segments = rawPath.split("/");
  for (let i = 1; i < segments.length; i++) {
    const d = decodeComponent(segments[i], false);
    if ("problem" in d) return { path: `/path/${i}`, message: `segment ${i} ${d.problem}` };
    if (d.text === "." || d.text === "..") return { path: `/path/${i}`, message: `segment ${i} is a dot segment` };
  }
  return null;
}

/**
 * The problems of a raw query string (without the "?"), one per offending parameter, and the
 * query without those parameters (a page may ignore a bad filter instead of failing).
 */
export function checkQuery(rawQuery: string): { problems: FieldError[]; cleaned: string } {
  const problems: FieldError[] = [];
  const kept: string[] = [];
  for (const pair of rawQuery.split("&")) {
    if (!pair) continue;
    const eq = pair.indexOf("=");
    const name = decodeComponent(eq < 0 ? pair : pair.slice(0, eq), true);
    const value = decodeComponent(eq < 0 ? "" : pair.slice(eq + 1), true);
    if ("problem" in name) problems.push({ path: "/query", message: `a parameter name ${name.problem}` });
    else if ("problem" in value) problems.push({ path: `/${name.text}`, message: value.problem });
    else kept.push(pair);
  }
  return { problems, cleaned: kept.join("&") };
}

/** Decoded values (query values, path parameters) that PostgreSQL could not store or compare. */
export function unstorableValues(values: Iterable<[string, string]>): FieldError[] {
  const out: FieldError[] = [];
  for (const [name, value] of values) {
    const p = textProblem(name) ? `a parameter name ${textProblem(name)}` : textProblem(value);
    if (p) out.push({ path: textProblem(name) ? "/query" : `/${name}`, message: p });
  }
  return out;
}
