// The ledger's arithmetic and state machine, as pure functions. The running means use the
// incremental form of the reference implementation (qilbee-memory's LearningMemory), so that
// results are bit-identical to it.
import { LedgerError } from "./errors";
import type { LedgerPolicy, PairedEvaluation, ProcedureAggregates, ProcedureState } from "./types";

export const REASON_ACTIVATED = "Fixed evaluation budget passed utility, improvement and resource gates";
export const REASON_REJECTED = "Fixed evaluation budget failed one or more promotion gates";
export const REASON_SUSPENDED = "Monitoring failure streak reached policy limit; fall back to baseline";

/** One-sided Hoeffding radius for paired differences with range 2: sqrt(2·ln(1/δ)/n). */
export function hoeffdingRadius(confidenceDelta: number, n: number): number {
  return Math.sqrt((-2 * Math.log(confidenceDelta)) / n);
}

/** The stored bound: the difference's minimum is −1, so lower values are clamped to it. */
export const clampBound = (lower: number): number => Math.max(lower, -1);

export type Transition = { from: ProcedureState; to: ProcedureState; reason: string };

const withinBudget = (policy: LedgerPolicy, e: PairedEvaluation): boolean =>
  e.candidate_cost_units <= policy.max_cost_units && e.candidate_latency_ms <= policy.max_latency_ms;

/**
 * Applies one accepted case to the aggregates. The caller has checked that the
 * phase matches the state. Returns the new aggregates and the transition it caused, if any.
 */
export function applyEvaluation(
  current: ProcedureAggregates,
  policy: LedgerPolicy,
  e: PairedEvaluation,
): { next: ProcedureAggregates; transition: Transition | null } {
  const next = { ...current };
  const budgetOk = withinBudget(policy, e);
  const improvement = e.candidate_utility - e.baseline_utility;
  let transition: Transition | null = null;
  if (e.phase === "qualification") {
    next.qualification_count += 1;
    const n = next.qualification_count;
    next.mean_improvement += (improvement - next.mean_improvement) / n;
    next.mean_candidate_utility += (e.candidate_utility - next.mean_candidate_utility) / n;
    if (!budgetOk) next.budget_violations += 1;
    // The one fixed decision point: no early acceptance, no early rejection.
    if (n === policy.qualification_trials) {
      const lower = next.mean_improvement - hoeffdingRadius(policy.confidence_delta, n);
      next.lower_improvement_bound = clampBound(lower);
      // The gate reads the unclamped bound, as the reference does.
      const accepted =
        lower >= policy.min_improvement &&
        next.mean_candidate_utility >= policy.min_candidate_utility &&
        next.budget_violations === 0;
      next.state = accepted ? "active" : "rejected";
      transition = { from: current.state, to: next.state, reason: accepted ? REASON_ACTIVATED : REASON_REJECTED };
    }
  } else {
    // The reference's u64 overflow check; here the counter is bounded by what JSON carries.
    if (next.monitoring_count >= Number.MAX_SAFE_INTEGER) throw new LedgerError("MemoryOperation", "Monitoring counter exhausted");
    next.monitoring_count += 1;
    // A tie with the baseline counts as good; successes in the past cannot offset a streak.
    const good = budgetOk && e.candidate_utility >= policy.min_candidate_utility && improvement >= 0;
    next.failure_streak = good ? 0 : next.failure_streak + 1;
    if (next.failure_streak >= policy.max_failure_streak) {
      next.state = "suspended";
      transition = { from: current.state, to: "suspended", reason: REASON_SUSPENDED };
    }
  }
  return { next, transition };
}

export type Gate = "improvement_bound" | "candidate_utility" | "budget";

/**
 * Which promotion gates a decided qualification failed, computed from the aggregates (the
 * reference's rejection reason does not say). The stored bound is clamped at −1, which cannot
 * change the comparison because min_improvement ≥ 0.
 */
export function failedGates(record: ProcedureAggregates & { proposal: { policy: LedgerPolicy } }): Gate[] {
  if (record.lower_improvement_bound === null) return [];
  const p = record.proposal.policy;
  const failed: Gate[] = [];
  if (record.lower_improvement_bound < p.min_improvement) failed.push("improvement_bound");
  if (record.mean_candidate_utility < p.min_candidate_utility) failed.push("candidate_utility");
  if (record.budget_violations > 0) failed.push("budget");
  return failed;
}
