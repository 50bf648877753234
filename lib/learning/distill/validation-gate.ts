// The validation gate: every check is mandatory and a rejection lists all reasons found
// before the judge. The judge runs only on a document that passed the machine checks.
import { findLeak, leakProbes } from "./leaks";
import type { SampleRun } from "./sample-run";
import { findSection, identifierTokens, parseSkillMd, type ParsedSkill } from "./skill-md";
import { knownFields, undeclaredToolReasons } from "./tool-mentions";

export type Verdict = { ok: boolean; reasons: string[] };

/** Decides whether the document reproduces the successes and handles the failures. */
export type Judge = (doc: { content: string; parsed: ParsedSkill }, samples: { successes: SampleRun[]; failures: SampleRun[] }) => Promise<Verdict>;

export type ValidationInput = {
  content: string;
  toolbox: ReadonlySet<string>;
  /** Each toolbox tool's declared parameter names (tool-mentions.ts#toolFieldsOf). */
  toolFields?: ReadonlyMap<string, ReadonlySet<string>>;
  maxChars: number;
  successes: SampleRun[];
  failures: SampleRun[];
  /** The class's trigger queries the distiller read besides the samples' (probed for leaks too). */
  queries?: readonly string[];
  judge: Judge;
};

export const INSUFFICIENT_REASON = "distillation returned INSUFFICIENT";

function isInsufficient(content: string): boolean {
  const t = content.trim();
  return t === "" || t.toUpperCase().startsWith("INSUFFICIENT");
}

/** The machine checks (everything but the judge), with every reason found. */
export function machineChecks(input: Omit<ValidationInput, "judge">): { reasons: string[]; parsed: ParsedSkill | null } {
  const content = input.content.trim();
  if (isInsufficient(content)) return { reasons: [INSUFFICIENT_REASON], parsed: null };
  const parsed = parseSkillMd(content);
  if (!parsed) return { reasons: ["frontmatter failed to parse"], parsed: null };
  const reasons: string[] = [];
  const fm = parsed.frontmatter;
  if (!fm.name) reasons.push("frontmatter missing 'name'");
  if (!fm.description) reasons.push("frontmatter missing 'description'");
  if (fm.preconditions.length === 0) reasons.push("frontmatter has no preconditions");
  if (fm.tools.length === 0) reasons.push("frontmatter declares no tools");
  for (const tool of fm.tools) if (!input.toolbox.has(tool)) reasons.push(`tool not found in toolbox: ${tool}`);
  const declared = new Set(fm.tools);
  const fields = knownFields(declared, input.toolFields ?? new Map(), [...input.successes, ...input.failures]);
  reasons.push(...undeclaredToolReasons([fm.description, ...fm.preconditions, parsed.body].join("\n"), declared, fields));

  const tokens = identifierTokens(fm.description);
  if (tokens.length && tokens.filter((t) => declared.has(t)).length / tokens.length > 0.5) reasons.push("description is a tool-sequence dump");

  const whenToApply = findSection(parsed.body, "When to apply");
  if (!whenToApply) reasons.push("missing section: When to apply");
  else if (!/when not to apply/i.test(whenToApply.text)) reasons.push("missing 'When NOT to apply' line under When to apply");
  if (!findSection(parsed.body, "Procedure")) reasons.push("missing section: Procedure");
  if (!findSection(parsed.body, "Failure modes observed")) reasons.push("missing section: Failure modes observed");

  if (content.length > input.maxChars) reasons.push(`content exceeds ${input.maxChars} chars (${content.length})`);

  const leaked = findLeak(content, leakProbes([...input.successes, ...input.failures], input.queries));
  if (leaked !== null) reasons.push(`literal value leaked into skill: '${leaked.slice(0, 40)}'`);
  return { reasons, parsed };
}

export async function validateSkill(input: ValidationInput): Promise<Verdict> {
  const { reasons, parsed } = machineChecks(input);
  if (reasons.length || !parsed) return { ok: false, reasons };
  return input.judge({ content: input.content.trim(), parsed }, { successes: input.successes, failures: input.failures });
}
