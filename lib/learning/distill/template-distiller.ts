// The deterministic distiller used when no LLM is configured: a SKILL.md built from the class
// itself, or INSUFFICIENT when its queries share no intent (./class-intent.ts). Frontmatter from
// the queries' shared intent terms and argument shapes, one ``Call `tool` with <shape>`` step per
// unit of the tool path, failure modes from the failure samples. It never
// copies a value: the leak probes steer word choice (a name never comes from identifiers,
// e-mail addresses or numbers: those are not content terms).
import { canonicalSignature, parseJsonText } from "../capture/canonical";
import { classIntent, type SharedTerm } from "../classes/class-intent";
import { kebabName } from "../classes/content-terms";
import type { DistillInput } from "./distill-prompt";
import { findLeak, leakProbes, type LeakProbe } from "./leaks";
import { observedFailureModes, type SampleRun, type SampleStep } from "./sample-run";
import { printFrontmatter } from "./skill-md";
import { previousVersionText } from "./previous-version";

export type Distillation = { content: string } | { insufficient: string };

/** The shared intent's words, most typical order first, leaving out any that is a value of the runs. */
export function intentWords(shared: SharedTerm[], probes: LeakProbe[], max = 4): string[] {
  const blocked = (w: string) => probes.some((p) => (p.whole ? p.value.toLowerCase() === w : w.includes(p.value.toLowerCase())));
  return shared.map((s) => s.word).filter((w) => !blocked(w)).slice(0, max);
}

/** A value's type shape: `string`, `number`, `{id: string}`, `[{sku: string}]`. */
export function shapeOf(value: unknown, depth = 0): string {
  const v = parseJsonText(value);
  if (v === null || v === undefined) return "null";
  if (depth > 4) return "object";
  if (Array.isArray(v)) return v.length ? `[${shapeOf(v[0], depth + 1)}]` : "[]";
  if (typeof v === "object") {
    const entries = Object.entries(v as object);
    return entries.length ? `{${entries.map(([k, x]) => `${k}: ${shapeOf(x, depth + 1)}`).join(", ")}}` : "{}";
  }
  return typeof v;
}

/** The last attempt of each unit of a run (the one whose outcome the unit carries). */
function unitSteps(run: SampleRun): SampleStep[] {
  const units = canonicalSignature(run.steps);
  const out: SampleStep[] = [];
  let i = 0;
  for (const u of units) {
    i += u.retry_count;
    out.push(run.steps[i - 1]);
  }
  return out;
}

/** Top-level argument keys whose values differ between the successful runs (they come from the request). */
function varyingKeys(runs: SampleRun[]): string[] {
  const seen = new Map<string, Set<string>>();
  for (const run of runs) {
    for (const step of unitSteps(run)) {
      const args = parseJsonText(step.arguments);
      if (!args || typeof args !== "object" || Array.isArray(args)) continue;
      for (const [k, v] of Object.entries(args)) {
        const set = seen.get(k) ?? new Set<string>();
        set.add(JSON.stringify(v));
        seen.set(k, set);
      }
    }
  }
  return [...seen.entries()].filter(([, vals]) => vals.size > 1 || runs.length === 1).map(([k]) => k);
}

function failureModes(failures: SampleRun[]): string[] {
  return observedFailureModes(failures).map((m) => {
    const what = m.errorTypes.length ? `failed with ${m.errorTypes.join(", ")}` : "returned a result that failed the run's outcome check";
    return `- \`${m.tool}\` ${what} in ${m.runs} of ${failures.length} sampled failed run(s): check its result before continuing and do not force the remaining steps.`;
  });
}

function render(input: DistillInput, words: string[], withResults: boolean): string {
  const successes = input.successes;
  const intent = words.join(" ");
  // Intent words in another script have no ASCII spelling: the tool path names the skill then.
  const name = kebabName(words) || kebabName(input.toolPath);
  const keys = varyingKeys(successes);
  const preconditions = [`The request asks for ${intent}`];
  if (keys.length) preconditions.unshift(`The request supplies the ${keys.join(", ")} value(s) the procedure needs`);
  const tools = [...new Set(input.toolPath)];
  const first = successes[0];
  const steps = first ? unitSteps(first) : [];
  const procedure = input.toolPath.map((tool, i) => {
    const step = steps[i];
    const shape = step && step.tool === tool ? shapeOf(step.arguments) : "its required arguments";
    return `${i + 1}. Call \`${tool}\` with ${shape}`;
  });
  const modes = failureModes(input.failures);
  const failingSummary = modes.length
    ? `, or an earlier step already failed the way listed under Failure modes observed`
    : "";
  const example = steps.map((s, i) => `${i + 1}. \`${s.tool}\`${withResults ? ` → ${shapeOf(s.result)}` : ""}`);
  const lines = [
    printFrontmatter({ name, description: `Use when a request asks for ${intent} and the preconditions hold.`, preconditions, tools }),
    `# ${name}`,
    "",
    "## When to apply",
    `Requests for ${intent}, matching the ${input.queries.length} recorded trigger queries of this procedure.`,
    `When NOT to apply: the request is not about ${intent}, a precondition does not hold${failingSummary}.`,
    "",
    "## Procedure",
    ...procedure,
    "",
    "## Failure modes observed",
    ...(modes.length ? modes : ["- None observed in the sampled runs."]),
    "",
    "## Worked example",
    "A matching request with its values redacted to shapes:",
    ...example,
  ];
  if (input.previousVersion) {
    lines.push("", "## Previous version", `${previousVersionText(input.previousVersion)} Re-check the preconditions before each step.`);
  }
  return lines.join("\n").trim();
}

/**
 * INSUFFICIENT with the reason when the class's queries share no intent (nothing is stored then);
 * else the document, with result shapes unless they leak (a key of a result can equal an
 * argument value).
 */
export function templateDistill(input: DistillInput): Distillation {
  const intent = classIntent(input.queries, input.minDistinctQueries);
  if (!intent.ok) return { insufficient: intent.reason };
  const probes = leakProbes([...input.successes, ...input.failures], input.queries);
  const words = intentWords(intent.shared, probes);
  if (words.length === 0) return { insufficient: "every term the queries share is a value of the runs" };
  const withResults = render(input, words, true);
  return { content: findLeak(withResults, probes) === null ? withResults : render(input, words, false) };
}
