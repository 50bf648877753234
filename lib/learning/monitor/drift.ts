// Outcome monitoring rules for ACTIVE skills: counters, the rolling window, drift demotion
// (rolling rate strictly below what the frozen baseline vouches for minus the delta, after the grace period)
// and the deviation review flag. Pure: the monitor applies them under a row lock.
// Drift is judged on the procedure, not on the outcome alone: a run that took another
// path than the skill's class is a deviation. It counts as an activation (and its success or
// failure in the activation counters) but never enters the rolling window nor the grace period,
// so a miscalibrated retrieval flags a skill for review and never demotes it.
import type { LearningConfig } from "../agents/config";
import { wilsonInterval } from "./wilson";

export type MonitorState = {
  activations: number;
  successes: number;
  failures: number;
  deviations: number;
  recentOutcomes: boolean[];
};

export type RunOutcome = { success: boolean; deviated: boolean };

/** Floating-point slack so that 7/10 vs 0.9 − 0.2 counts as equal (equality never demotes). */
const EPSILON = 1e-9;

type DriftConfig = Pick<LearningConfig, "drift_window_activations" | "demotion_success_delta" | "min_activations_before_drift_check">;

/** Activations that followed the skill's procedure (the runs the drift window is made of). */
const followedActivations = (state: Pick<MonitorState, "activations" | "deviations">) => state.activations - state.deviations;

/**
 * The rate a frozen baseline vouches for: the lower end of the 95 % Wilson interval of its
 * success rate over its `executions` runs (the rate itself when the count is unknown). Five
 * successes in five runs are no evidence of a procedure that never fails: judged against
 * 1.00 − delta, a window of ten demoted helpful skills for a few noisy outcome labels
 * (docs/proving-ground.md measured it), while a procedure that stopped working falls below the
 * vouched rate as fast.
 */
export function vouchedRate(rate: number, executions: number | null | undefined): number {
  if (!executions || executions <= 0) return rate;
  return wilsonInterval(rate, executions).low;
}

/**
 * What an active skill's runs are judged against. A distilled skill: its frozen baseline (rate
 * and the runs behind it), and runs that took another path than its class are deviations. An
 * imported skill has no class and no runs behind it (baseline rate null): every run it was given
 * counts, judged against the success rate a class needs to be distilled (min_success_rate), so a
 * wrong import is demoted like a drifted skill instead of staying active for good.
 */
export function judgedAgainst(
  baseline: { success_rate?: unknown; executions?: unknown } | null,
  imported: boolean,
  config: Pick<LearningConfig, "min_success_rate">,
): { rate: number | null; executions: number | null; classless: boolean } {
  const rate = typeof baseline?.success_rate === "number" ? baseline.success_rate : null;
  const executions = typeof baseline?.executions === "number" ? baseline.executions : null;
  if (imported && rate === null) return { rate: config.min_success_rate, executions: null, classless: true };
  return { rate, executions, classless: false };
}

export function driftReason(state: MonitorState, baselineRate: number | null, config: DriftConfig, baselineExecutions?: number | null): string | null {
  if (baselineRate === null || followedActivations(state) < config.min_activations_before_drift_check) return null;
  const window = state.recentOutcomes.slice(-config.drift_window_activations);
  if (window.length === 0) return null;
  const rolling = window.filter(Boolean).length / window.length;
  if (rolling < vouchedRate(baselineRate, baselineExecutions) - config.demotion_success_delta - EPSILON) {
    return `drift: rolling ${rolling.toFixed(2)} vs baseline ${baselineRate.toFixed(2)}`;
  }
  return null;
}

/**
 * Applies runs in order. Stops at a demotion: later runs of the batch found the skill no
 * longer ACTIVE and are not attributed to it. `applied` says how many runs counted.
 */
export function applyOutcomes(
  start: MonitorState,
  runs: RunOutcome[],
  baselineRate: number | null,
  config: DriftConfig,
  now: Date,
  baselineExecutions?: number | null,
): { state: MonitorState; applied: number; demotionReason: string | null; lastActivatedAt: Date | null } {
  const state: MonitorState = { ...start, recentOutcomes: [...start.recentOutcomes] };
  let applied = 0;
  for (const run of runs) {
    applied++;
    state.activations++;
    if (run.success) state.successes++;
    else state.failures++;
    if (run.deviated) {
      state.deviations++;
      continue;
    }
    state.recentOutcomes = [...state.recentOutcomes, run.success].slice(-config.drift_window_activations);
    const reason = driftReason(state, baselineRate, config, baselineExecutions);
    if (reason) return { state, applied, demotionReason: reason, lastActivatedAt: now };
  }
  return { state, applied, demotionReason: null, lastActivatedAt: applied ? now : null };
}

/** The reference's thresholds: a review flag when more than half of at least `min_activations_before_drift_check` activations took another path. */
export function deviationFlag(state: Pick<MonitorState, "activations" | "deviations">, config: Pick<LearningConfig, "min_activations_before_drift_check">): string | null {
  if (state.activations === 0 || state.activations < config.min_activations_before_drift_check) return null;
  const rate = state.deviations / state.activations;
  if (rate <= 0.5) return null;
  return `${DEVIATION_FLAG_PREFIX}${rate.toFixed(2)} over ${state.activations} activations: applicability likely miscalibrated`;
}

export const DEVIATION_FLAG_PREFIX = "deviation rate ";

/** Whether a stored review flag is the deviation flag (the monitor rewrites only its own flag). */
export const isDeviationFlag = (flag: string) => flag.startsWith(DEVIATION_FLAG_PREFIX);
