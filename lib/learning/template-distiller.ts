// The deterministic distiller used when no LLM is configured: a SKILL.md built from the class
// itself. Frontmatter from the sampled queries and argument shapes, one ``Call `tool` with
// <shape>`` step per unit of the tool path, failure modes from the failure samples. It never
// copies a value: the leak probes steer word choice, and a document that would still leak
// falls back to generic wording.
import { canonicalSignature, parseJsonText } from "./canonical";
import type { DistillInput } from "./distill-prompt";
import { findLeak, leakProbes, type LeakProbe } from "./leaks";
import { observedFailureModes, type SampleRun, type SampleStep } from "./sample-run";
import { printFrontmatter } from "./skill-md";

const STOPWORDS = new Set(
  "a an and are as at be by can could do does for from get give how i in into is it its me my of on or our please should so that the their them this to up us we what when where which who why will with would you your".split(
    " ",
  ),
);

/** Words shared by at least half the queries, most frequent first; never ids or leaked values. */
export function intentWords(queries: string[], probes: LeakProbe[], max = 4): string[] {
  const blocked = (w: string) => probes.some((p) => (p.whole ? p.value.toLowerCase() === w : w.includes(p.value.toLowerCase())));
  const counts = new Map<string, { n: number; first: number }>();
  let order = 0;
  for (const q of queries) {
    // Tokens with a digit (order numbers, amounts) are identifiers, never intent words.
    const tokens = q.toLowerCase().split(/[\s,;:!?()"]+/).filter((t) => t && !/\d/.test(t));
    const words = new Set(tokens.flatMap((t) => t.match(/[a-z][a-z'-]*[a-z]|[a-z]/g) ?? []).filter((w) => w.length >= 3 && !STOPWORDS.has(w)));
    for (const w of words) {
      const c = counts.get(w) ?? { n: 0, first: order++ };
      c.n++;
      counts.set(w, c);
    }
  }
  const need = Math.max(1, Math.ceil(queries.length / 2));
  return [...counts.entries()]
    .filter(([w, c]) => c.n >= need && !blocked(w))
    .sort((a, b) => b[1].n - a[1].n || a[1].first - b[1].first)
    .slice(0, max)
    .map(([w]) => w);
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
  const intent = words.length ? words.join(" ") : "this recurring kind of request";
  const name = words.length ? words.join("-") : "learned-procedure";
  const keys = varyingKeys(successes);
  const preconditions = keys.length
    ? [`The request supplies the ${keys.join(", ")} value(s) the procedure needs`]
    : [`The request asks for ${intent}`];
  if (words.length && keys.length) preconditions.push(`The request asks for ${intent}`);
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
  if (input.previousDemotionReason) {
    lines.push("", "## Previous version", `A previous version was retired (${input.previousDemotionReason}); re-check the preconditions before each step.`);
  }
  return lines.join("\n").trim();
}

/**
 * The most specific document that leaks nothing: with intent words and result shapes, then
 * generic wording, then without result shapes (a key of a result can equal an argument value).
 */
export function templateDistill(input: DistillInput): string {
  const probes = leakProbes([...input.successes, ...input.failures]);
  const words = intentWords(input.queries, probes);
  const attempts: [string[], boolean][] = [[words, true], [[], true], [words, false], [[], false]];
  let doc = "";
  for (const [w, results] of attempts) {
    doc = render(input, w, results);
    if (findLeak(doc, probes) === null) return doc;
  }
  return doc;
}
