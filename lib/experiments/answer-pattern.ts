// Experiment cases whose answer_match is "regex": the pattern an admin wrote is run by RE2JS
// (a pure-JS port of RE2), whose matching time is linear in the answer's length whatever the
// pattern. JavaScript's own engine backtracks: `^(\w+\s?)+$` against "a"×26 + "!" took seconds.
// Patterns are written in JavaScript's syntax (translated for RE2: \uXXXX, named groups); what
// RE2 has no linear-time form for (backreferences, lookaround) is refused when the case is created.
import { RE2JS } from "re2js";

/** Characters of a regex answer pattern (RE2 also caps each repetition count at 1,000). */
export const MAX_ANSWER_PATTERN_CHARS = 1_000;
/** Characters of an answer a pattern is run against; a longer answer never matches a pattern. */
export const MAX_PATTERN_ANSWER_CHARS = 65_536;

/** The compiled pattern, or the reason RE2 refuses it. */
function compile(pattern: string): RE2JS | string {
  if (pattern.length > MAX_ANSWER_PATTERN_CHARS) return `must be at most ${MAX_ANSWER_PATTERN_CHARS} characters`;
  try {
    return RE2JS.compile(RE2JS.translateRegExp(pattern));
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** Why `pattern` cannot be a case's answer pattern, or null. */
export function answerPatternProblem(pattern: string): string | null {
  const compiled = compile(pattern);
  return typeof compiled === "string" ? `is not a regular expression Proctor can run in linear time (${compiled})` : null;
}

/** Compiled patterns kept (a report scores every run of a case against the same one). */
const MAX_CACHED_PATTERNS = 256;
const cache = new Map<string, RE2JS | string>();

/** Whether `answer` holds a match of `pattern`; a pattern RE2 refuses (one stored before patterns were checked) matches nothing. */
export function answerPatternMatches(pattern: string, answer: string): boolean {
  let compiled = cache.get(pattern);
  if (compiled === undefined) {
    if (cache.size >= MAX_CACHED_PATTERNS) cache.clear();
    compiled = compile(pattern);
    cache.set(pattern, compiled);
  }
  return typeof compiled !== "string" && answer.length <= MAX_PATTERN_ANSWER_CHARS && compiled.test(answer);
}
