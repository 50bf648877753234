// What a reflection sees and what it may answer. Two reflectors implement it: the LLM one
// (llm-reflector.ts) and, when no model is configured, a deterministic one that only picks up
// goals the user stated explicitly ("my goal is …", "I want to …").
import { trimEdges } from "../text/trim-edges";

export type EvidenceMessage = {
  /** Short handle shown to the model ("m1", "m2", …) so it never has to echo raw ids. */
  ref: string;
  id: string;
  threadId: string;
  agentId: string;
  timestamp: Date;
  text: string;
};

export type ReflectionInput = { goals: string; messages: EvidenceMessage[] };

export type ReflectionUsage = {
  model: string;
  inputTokens: number | null;
  outputTokens: number | null;
  durationMs: number;
  estimatedCostUsd: number | null;
};

export type ReflectionOutcome =
  | { kind: "change"; goals: string; reason: string; evidenceRefs: string[]; usage: ReflectionUsage }
  | { kind: "no_change"; reason: string; usage: ReflectionUsage }
  /** `failure` is one of a few fixed sentences: no model or message text ever goes into it. */
  | { kind: "failed"; failure: string; usage: ReflectionUsage };

export type Reflector = { reflect(input: ReflectionInput): Promise<ReflectionOutcome> };

export const MAX_GOAL_LINES = 12;

const STATEMENTS = [
  /\bmy (?:main |learning |new )?goals? (?:is|are) (?:to )?([^.!?\n]+)/gi,
  /\bi (?:really )?want to ([^.!?\n]+)/gi,
  /\bi(?:'d| would) like to ([^.!?\n]+)/gi,
  /\bi(?:'m| am) trying to ([^.!?\n]+)/gi,
];

// Read from text whose spaces are collapsed: `\s+` on both sides of a word was quadratic on long runs of spaces.
const NEXT_CLAUSE = /,? (?:and|but) (?:i|my)\b/i;

/** Goals the user stated explicitly in one message, as short capitalized lines. */
export function explicitGoals(text: string): string[] {
  const found: string[] = [];
  for (const pattern of STATEMENTS) {
    for (const m of text.matchAll(pattern)) {
      // A following clause about another goal ("…, and I'd like to …") is its own match.
      const spaced = m[1].replace(/\s+/g, " ").split(NEXT_CLAUSE)[0].trim();
      const goal = trimEdges(spaced, /[,;:]/, "end");
      if (goal.length >= 3 && goal.length <= 200) found.push(goal[0].toUpperCase() + goal.slice(1));
    }
  }
  return found;
}

const key = (line: string) => line.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();

/** The current goal lines plus new ones (case- and punctuation-insensitive dedup), newest kept. */
export function mergeGoals(current: string, additions: string[]): string {
  const lines = current.split("\n").map((l) => l.trim()).filter(Boolean);
  const seen = new Set(lines.map(key));
  for (const goal of additions) {
    if (seen.has(key(goal))) continue;
    seen.add(key(goal));
    lines.push(goal);
  }
  return lines.slice(-MAX_GOAL_LINES).join("\n");
}

export function deterministicReflector(now: () => number = Date.now): Reflector {
  return {
    async reflect({ goals, messages }) {
      const started = now();
      const usage = (): ReflectionUsage => ({
        model: "deterministic",
        inputTokens: null,
        outputTokens: null,
        durationMs: Math.max(0, now() - started),
        estimatedCostUsd: null,
      });
      const additions: string[] = [];
      const refs: string[] = [];
      for (const m of messages) {
        const stated = explicitGoals(m.text);
        if (stated.length === 0) continue;
        const before = mergeGoals(goals, additions);
        additions.push(...stated);
        if (mergeGoals(goals, additions) !== before) refs.push(m.ref);
      }
      if (refs.length === 0) {
        return { kind: "no_change", reason: "No new explicit goal statements in the reviewed messages.", usage: usage() };
      }
      const n = refs.length;
      return {
        kind: "change",
        goals: mergeGoals(goals, additions),
        reason: `The account stated new goals explicitly in ${n} message${n === 1 ? "" : "s"}.`,
        evidenceRefs: refs,
        usage: usage(),
      };
    },
  };
}
