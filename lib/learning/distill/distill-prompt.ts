// The distillation and judge prompts: the sampled runs, the requirements and skeleton a
// distilled SKILL.md must follow, and the judge's YES/NO question.
import type { SampleRun } from "./sample-run";
import { previousVersionText, type PreviousVersion } from "./previous-version";

const RESULT_CHARS = 300;

const show = (v: unknown) => {
  if (v === undefined) return "null";
  try {
    return typeof v === "string" ? v : JSON.stringify(v);
  } catch {
    return String(v);
  }
};

export function formatRun(run: SampleRun, label: string): string {
  const lines = [label, `User query: ${run.query.trim() || "(none recorded)"}`, `Outcome: ${run.outcome}`];
  run.steps.forEach((s, i) => {
    lines.push(`Step ${i + 1}: ${s.tool}`);
    lines.push(`  arguments: ${show(s.arguments)}`);
    lines.push(`  result: ${show(s.result).slice(0, RESULT_CHARS)}`);
    if (s.error !== null && s.error !== undefined && s.error !== "") lines.push(`  error: ${show(s.error).slice(0, RESULT_CHARS)}`);
  });
  return lines.join("\n");
}

export type DistillInput = {
  successes: SampleRun[];
  failures: SampleRun[];
  /** The retired version this one replaces, by its recorded outcomes; null for a first version. */
  previousVersion: PreviousVersion | null;
  maxChars: number;
  /** The class's tool path after retry collapse. */
  toolPath: string[];
  /** Distinct trigger queries sampled from the class, most recent first. */
  queries: string[];
  /** How many of `queries` must carry content terms for the template distiller (the class gate's min_distinct_queries). */
  minDistinctQueries: number;
};

export function distillPrompt(input: DistillInput): string {
  const parts = [
    ...input.successes.map((r, i) => formatRun(r, `SUCCESSFUL RUN ${i + 1}`)),
    ...input.failures.map((r, i) => formatRun(r, `FAILED RUN ${i + 1}`)),
  ];
  if (input.previousVersion) {
    parts.push(`NOTE: ${previousVersionText(input.previousVersion)}\nThe new version must handle the failures shown above.`);
  }
  return parts.join("\n\n");
}

export function distillInstructions(maxChars: number): string {
  return [
    "You compile an AI agent's repeated successful tool-calling runs into a reusable SKILL.md procedure.",
    "Requirements:",
    "1. Start with YAML frontmatter containing exactly: name, description, preconditions (a list), tools (a list of tool names). It must be valid YAML: double-quote a value that contains \": \" or \" #\" or starts with a backtick.",
    "2. The description states WHEN to use the skill, in one sentence. It must not enumerate the tool sequence.",
    "3. Preconditions are checkable facts, derived from what varied and what stayed constant across the runs. If no precondition can be stated, output exactly INSUFFICIENT.",
    "4. Procedure steps name tools and give argument SHAPES. Never copy literal argument values, result values, identifiers, amounts or e-mail addresses from the runs.",
    '5. A "When NOT to apply" line appears under the "When to apply" section, derived from the failures.',
    '6. A "Failure modes observed" section lists only failures actually present in the input.',
    `7. The whole document is under ${maxChars} characters.`,
    "8. If the runs are contradictory or unclear, output exactly INSUFFICIENT.",
    "Skeleton:",
    "---",
    "name: <short-kebab-name>",
    "description: <one sentence: when to use this skill>",
    "preconditions:",
    "  - <checkable fact>",
    "tools:",
    "  - <tool name>",
    "---",
    "# <name>",
    "## When to apply",
    "<situations>",
    "When NOT to apply: <situations, from the failures>",
    "## Procedure",
    "1. Call `<tool>` with <argument shape>",
    "## Failure modes observed",
    "- <failure seen in the runs, and how to handle it>",
    "## Worked example",
    "<an example with values redacted to shapes>",
  ].join("\n");
}

const JUDGE_RUNS = 3;

export function judgePrompt(content: string, successes: SampleRun[], failures: SampleRun[]): string {
  const parts = [`SKILL DOCUMENT:\n${content}`];
  const ok = successes.slice(0, JUDGE_RUNS);
  if (ok.length) parts.push(`OBSERVED SUCCESSFUL RUNS:\n\n${ok.map((r, i) => formatRun(r, `RUN ${i + 1}`)).join("\n\n")}`);
  const bad = failures.slice(0, JUDGE_RUNS);
  if (bad.length) parts.push(`OBSERVED FAILED RUNS:\n\n${bad.map((r, i) => formatRun(r, `RUN ${i + 1}`)).join("\n\n")}`);
  return parts.join("\n\n");
}

export const JUDGE_INSTRUCTIONS =
  "You review a learned procedure (SKILL.md) against the runs it was distilled from. Would this document, " +
  "applied to a matching query, plausibly reproduce the successful runs while avoiding or correctly handling " +
  "the failed runs? Answer YES or NO as the first word, then one sentence of justification.";
