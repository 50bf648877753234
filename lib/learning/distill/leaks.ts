// The literal-value leak check of the validation gate: a skill is a generalization, so no
// value of its source runs may appear in it. Probes: argument values of 6+ characters at any
// depth, result values of 6+ characters, and the identifiers, numbers and e-mail addresses
// that appear in the sample queries and in the class's trigger queries the distiller also read.
// A class of the agent-wide learning scope pools many accounts' runs: every account's values
// are probed alike, so no account's order ids or addresses reach the skill the others receive.
import { parseJsonText } from "../capture/canonical";
import type { SampleRun } from "./sample-run";
import { trimEdges } from "../../text/trim-edges";

export type LeakProbe = { value: string; whole: boolean };

const MIN_VALUE_CHARS = 6;
const MAX_DEPTH = 32;

function leaves(value: unknown, out: string[], depth = 0) {
  if (depth > MAX_DEPTH || value === null || value === undefined) return;
  const v = parseJsonText(value);
  if (Array.isArray(v)) v.forEach((x) => leaves(x, out, depth + 1));
  else if (typeof v === "object") Object.values(v as object).forEach((x) => leaves(x, out, depth + 1));
  else out.push(String(v).trim());
}

const LOCAL_CHAR = /[A-Za-z0-9._%+-]/;
const DOMAIN_CHAR = /[A-Za-z0-9.-]/;
const LETTER = /[A-Za-z]/;

/**
 * E-mail addresses (local@domain.tld, the TLD two letters or more), found from each @ by string
 * code: the pattern for it rescanned a long run of address characters from each of them.
 */
function emailsIn(text: string): { start: number; end: number }[] {
  const found: { start: number; end: number }[] = [];
  let from = 0;
  for (let at = text.indexOf("@"); at !== -1; at = text.indexOf("@", Math.max(at + 1, from))) {
    let start = at;
    while (start > from && LOCAL_CHAR.test(text[start - 1])) start--;
    let domainEnd = at + 1;
    while (domainEnd < text.length && DOMAIN_CHAR.test(text[domainEnd])) domainEnd++;
    // The domain's last dot with something before it and two letters after it.
    let dot = domainEnd - 1;
    while (dot > at + 1 && !(text[dot] === "." && LETTER.test(text[dot + 1] ?? "") && LETTER.test(text[dot + 2] ?? ""))) dot--;
    if (start === at || dot <= at + 1) continue;
    let end = dot + 1;
    while (end < text.length && LETTER.test(text[end])) end++;
    found.push({ start, end });
    from = end;
  }
  return found;
}

/** Tokens with a digit: order numbers like A1 or ORD-2231, amounts like 12.50, account ids. */
const WITH_DIGIT = /[A-Za-z0-9][A-Za-z0-9._:/#-]*/g;

function queryProbes(query: string): string[] {
  const emails = emailsIn(query);
  const out = emails.map((e) => query.slice(e.start, e.end));
  let rest = query;
  for (const e of emails.reverse()) rest = rest.slice(0, e.start) + " " + rest.slice(e.end);
  for (const raw of rest.match(WITH_DIGIT) ?? []) {
    const tok = trimEdges(raw, /[.:/#-]/, "end");
    if (!/\d/.test(tok)) continue;
    // A lone digit would match step numbering; two characters (A1, 42) are already specific.
    if (tok.length >= 2) out.push(tok);
  }
  return out;
}

/** The probes of the sample runs and of `queries` (the trigger queries the distiller read besides the samples'). */
export function leakProbes(runs: SampleRun[], queries: readonly string[] = []): LeakProbe[] {
  const probes = new Map<string, LeakProbe>();
  const add = (value: string, whole: boolean) => {
    const key = `${whole ? "w" : "s"}:${whole ? value.toLowerCase() : value}`;
    if (!probes.has(key)) probes.set(key, { value, whole });
  };
  for (const run of runs) {
    const values: string[] = [];
    for (const step of run.steps) {
      leaves(step.arguments, values);
      leaves(step.result, values);
    }
    for (const v of values) if (v.length >= MIN_VALUE_CHARS) add(v, false);
    for (const q of queryProbes(run.query)) add(q, true);
  }
  for (const query of queries) for (const q of queryProbes(query)) add(q, true);
  // Longest first, so the reported value is the most specific one.
  return [...probes.values()].sort((a, b) => b.value.length - a.value.length);
}

const ALPHANUMERIC = /[A-Za-z0-9]/;

/** Whether `value` occurs in `text` as a whole token (no letter or digit either side); both lowercased. */
function holdsWhole(text: string, value: string): boolean {
  for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + 1)) {
    const before = text[at - 1];
    const after = text[at + value.length];
    if ((before === undefined || !ALPHANUMERIC.test(before)) && (after === undefined || !ALPHANUMERIC.test(after))) return true;
  }
  return false;
}

/** The first leaked value, or null. Whole probes match case-insensitively. */
export function findLeak(content: string, probes: LeakProbe[]): string | null {
  const lower = content.toLowerCase();
  return probes.find((p) => (p.whole ? holdsWhole(lower, p.value.toLowerCase()) : content.includes(p.value)))?.value ?? null;
}
