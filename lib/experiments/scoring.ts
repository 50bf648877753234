// Experiment scoring: pure functions from stored cases and runs to the report's figures.
// Accuracy per run, means per (case, arm) over
// repetitions, aggregates as the mean of the case means (every case weighs the same), each
// treatment's delta from the baseline arm paired by case, and a paired bootstrap 95 % interval
// for each delta drawn with a seeded PRNG (pure-rand), so the same seed gives the same interval.
import { unsafeUniformIntDistribution, xoroshiro128plus } from "pure-rand";
import { answerPatternMatches } from "./answer-pattern";

export const ARM_MODES = ["raw_workflows", "skill_user", "skill_developer", "none"] as const;
export type ArmMode = (typeof ARM_MODES)[number];
/** One arm: its name in reports and reports of runs, its context mode, and n raw workflows for raw_workflows. */
export type Arm = { name: string; mode: ArmMode; n?: number };

export const ANSWER_MATCHES = ["exact", "normalized", "regex"] as const;
export type AnswerMatch = (typeof ANSWER_MATCHES)[number];

export type ScoredCase = { caseId: string; expectedHash: string | null; expectedAnswer: string | null; answerMatch: AnswerMatch };

/** A reported run with the context facts Proctor recorded when it served the arm. */
export type ScoredRun = {
  caseId: string;
  arm: string;
  repetition: number;
  /** Canonical hash of the reported steps (null: no tool call). */
  stepsHash: string | null;
  answer: string | null;
  promptTokens: number;
  completionTokens: number;
  llmCalls: number;
  inferenceMs: number;
  endToEndMs: number;
  rawWorkflowCount: number;
  developerMessage: boolean;
};

/** The seed's figures, in its order. Accuracies and rates are fractions in [0, 1]. */
export const METRICS = [
  { key: "workflow_accuracy", label: "Exact workflow accuracy", unit: "rate", better: "higher" },
  { key: "answer_accuracy", label: "Answer accuracy", unit: "rate", better: "higher" },
  { key: "combined_accuracy", label: "Combined task accuracy", unit: "rate", better: "higher" },
  { key: "prompt_tokens", label: "Prompt tokens", unit: "tokens", better: "lower" },
  { key: "completion_tokens", label: "Completion tokens", unit: "tokens", better: "lower" },
  { key: "total_tokens", label: "Total tokens", unit: "tokens", better: "lower" },
  { key: "llm_calls", label: "LLM calls", unit: "calls", better: "lower" },
  { key: "inference_ms", label: "Provider inference latency", unit: "ms", better: "lower" },
  { key: "end_to_end_ms", label: "End-to-end latency", unit: "ms", better: "lower" },
  { key: "raw_workflow_prompt_rate", label: "Raw-workflow prompt rate", unit: "rate", better: "neutral" },
  { key: "developer_message_rate", label: "Developer-message rate", unit: "rate", better: "neutral" },
] as const;
export type MetricKey = (typeof METRICS)[number]["key"];
/** A metric's value; null where it does not apply (no expected path or answer, nothing reported). */
export type Figures = Record<MetricKey, number | null>;

/** Case, spaces and Unicode forms do not matter; nor does one trailing full stop. */
export function normalizeAnswer(s: string): string {
  return s.normalize("NFKC").trim().toLowerCase().replace(/\s+/g, " ").replace(/\.$/, "");
}

export function answerMatches(expected: string, answer: string | null, mode: AnswerMatch): boolean {
  if (answer === null) return false;
  if (mode === "regex") return answerPatternMatches(expected, answer);
  return mode === "exact" ? answer === expected : normalizeAnswer(answer) === normalizeAnswer(expected);
}

/** One run's figures against its case. */
export function runFigures(c: ScoredCase, r: ScoredRun): Figures {
  const workflow = c.expectedHash === null ? null : r.stepsHash === c.expectedHash ? 1 : 0;
  const answer = c.expectedAnswer === null ? null : answerMatches(c.expectedAnswer, r.answer, c.answerMatch) ? 1 : 0;
  // Both declared expectations must hold; a case declares at least one.
  const combined = workflow === null && answer === null ? null : (workflow ?? 1) * (answer ?? 1);
  return {
    workflow_accuracy: workflow,
    answer_accuracy: answer,
    combined_accuracy: combined,
    prompt_tokens: r.promptTokens,
    completion_tokens: r.completionTokens,
    total_tokens: r.promptTokens + r.completionTokens,
    llm_calls: r.llmCalls,
    inference_ms: r.inferenceMs,
    end_to_end_ms: r.endToEndMs,
    raw_workflow_prompt_rate: r.rawWorkflowCount > 0 ? 1 : 0,
    developer_message_rate: r.developerMessage ? 1 : 0,
  };
}

const mean = (xs: number[]): number | null => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

/** Per-metric mean over the figures where the metric applies. */
export function meanFigures(all: Figures[]): Figures {
  const out = {} as Figures;
  for (const { key } of METRICS) out[key] = mean(all.map((f) => f[key]).filter((v): v is number => v !== null));
  return out;
}

export type CaseArmFigures = { caseId: string; arm: string; runs: number; figures: Figures };

/** Means over repetitions for every (case, arm) with at least one reported run, in case then arm order. */
export function caseArmFigures(cases: ScoredCase[], arms: Arm[], runs: ScoredRun[]): CaseArmFigures[] {
  const out: CaseArmFigures[] = [];
  for (const c of cases) {
    for (const arm of arms) {
      const mine = runs.filter((r) => r.caseId === c.caseId && r.arm === arm.name);
      if (mine.length) out.push({ caseId: c.caseId, arm: arm.name, runs: mine.length, figures: meanFigures(mine.map((r) => runFigures(c, r))) });
    }
  }
  return out;
}

/** An arm's aggregate: the mean of its case means (cases weigh the same whatever their repetitions). */
export function armAggregate(cells: CaseArmFigures[], arm: string): Figures {
  return meanFigures(cells.filter((c) => c.arm === arm).map((c) => c.figures));
}

export const BOOTSTRAP_RESAMPLES = 2000;

export type Interval = { low: number; high: number };

/** Linear interpolation between order statistics (type 7, as numpy's default). */
function quantile(sorted: number[], q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  return sorted[lo] + (h - lo) * ((sorted[Math.min(lo + 1, sorted.length - 1)] ?? sorted[lo]) - sorted[lo]);
}

/**
 * Percentile bootstrap 95 % interval of the mean of paired differences: cases are resampled
 * with replacement, each resample's mean taken. Null with fewer than two pairs.
 */
export function pairedBootstrap(deltas: number[], seed: number, resamples = BOOTSTRAP_RESAMPLES): Interval | null {
  if (deltas.length < 2) return null;
  const rng = xoroshiro128plus(seed);
  const n = deltas.length;
  const means: number[] = new Array(resamples);
  for (let b = 0; b < resamples; b++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += deltas[unsafeUniformIntDistribution(0, n - 1, rng)];
    means[b] = sum / n;
  }
  means.sort((a, b) => a - b);
  return { low: quantile(means, 0.025), high: quantile(means, 0.975) };
}

export type Delta = {
  arm: string;
  metric: MetricKey;
  /** Mean over paired cases of (treatment case mean − baseline case mean); null without pairs. */
  delta: number | null;
  interval: Interval | null;
  /** Cases with both arms' values for this metric. */
  pairs: number;
};

/** Each metric's paired differences of `arm` from `baseline`, case by case. */
export function pairedDifferences(cells: CaseArmFigures[], baseline: string, arm: string, metric: MetricKey): number[] {
  const base = new Map(cells.filter((c) => c.arm === baseline).map((c) => [c.caseId, c.figures[metric]]));
  const out: number[] = [];
  for (const c of cells) {
    if (c.arm !== arm) continue;
    const b = base.get(c.caseId);
    const t = c.figures[metric];
    if (b !== null && b !== undefined && t !== null) out.push(t - b);
  }
  return out;
}

/** Every treatment arm's delta from the baseline for every metric, with its interval. */
export function deltasFromBaseline(cells: CaseArmFigures[], arms: Arm[], baseline: string, seed: number): Delta[] {
  const out: Delta[] = [];
  for (const arm of arms) {
    if (arm.name === baseline) continue;
    for (const { key } of METRICS) {
      const d = pairedDifferences(cells, baseline, arm.name, key);
      out.push({ arm: arm.name, metric: key, delta: mean(d), interval: pairedBootstrap(d, seed), pairs: d.length });
    }
  }
  return out;
}
