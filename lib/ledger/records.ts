// Stored rows → the ledger's records, and the proposal comparison that makes proposals immutable.
import type { LedgerDecision as DecisionRow, LedgerEvaluation as EvaluationRow, LedgerProcedure as ProcedureRow } from "../db/generated/client";
import type { LedgerState } from "../db/generated/enums";
import type { EvaluationReceipt, ProcedureProposal, ProcedureRecord, ProcedureState } from "./types";

export const stateOf = (s: LedgerState | string): ProcedureState => s.toLowerCase() as ProcedureState;
export const dbState = (s: ProcedureState): LedgerState => s.toUpperCase() as LedgerState;

export function proposalOf(row: ProcedureRow): ProcedureProposal {
  return {
    id: row.procedureId,
    task: row.task,
    baseline_revision: row.baselineRevision,
    instructions: row.instructions,
    source_refs: row.sourceRefs,
    policy: {
      qualification_trials: row.qualificationTrials,
      confidence_delta: row.confidenceDelta,
      min_improvement: row.minImprovement,
      min_candidate_utility: row.minCandidateUtility,
      max_cost_units: Number(row.maxCostUnits),
      max_latency_ms: Number(row.maxLatencyMs),
      max_failure_streak: row.maxFailureStreak,
      evaluator_id: row.evaluatorId,
      evaluation_contract: row.evaluationContract,
    },
  };
}

export function recordOf(row: ProcedureRow & { decisions: DecisionRow[] }): ProcedureRecord {
  return {
    scope: { tenant: row.tenant, agent: row.agent, environment: row.environment },
    proposal: proposalOf(row),
    state: stateOf(row.state),
    qualification_count: row.qualificationCount,
    mean_improvement: row.meanImprovement,
    mean_candidate_utility: row.meanCandidateUtility,
    budget_violations: row.budgetViolations,
    lower_improvement_bound: row.lowerImprovementBound,
    monitoring_count: Number(row.monitoringCount),
    failure_streak: row.failureStreak,
    decisions: row.decisions.map((d) => ({
      from: stateOf(d.fromState),
      to: stateOf(d.toState),
      reason: d.reason,
      triggering_case: d.triggeringCase,
      recorded_at: d.recordedAt,
    })),
    created_at: row.createdAt,
  };
}

export function receiptOf(row: EvaluationRow): EvaluationReceipt {
  return {
    evaluation: {
      case_id: row.caseId,
      phase: row.phase === "QUALIFICATION" ? "qualification" : "monitoring",
      evaluator_id: row.evaluatorId,
      evaluation_contract: row.evaluationContract,
      evidence_ref: row.evidenceRef,
      baseline_utility: row.baselineUtility,
      candidate_utility: row.candidateUtility,
      candidate_cost_units: Number(row.candidateCostUnits),
      candidate_latency_ms: Number(row.candidateLatencyMs),
    },
    state_after: stateOf(row.stateAfter),
    recorded_at: row.recordedAt,
  };
}

/** Field-by-field equality, floats compared exactly (so -0 equals 0, as in Rust), list order included. */
export function sameProposal(a: ProcedureProposal, b: ProcedureProposal): boolean {
  const pa = a.policy;
  const pb = b.policy;
  return (
    a.id === b.id &&
    a.task === b.task &&
    a.baseline_revision === b.baseline_revision &&
    a.instructions === b.instructions &&
    a.source_refs.length === b.source_refs.length &&
    a.source_refs.every((r, i) => r === b.source_refs[i]) &&
    (Object.keys(pa) as (keyof typeof pa)[]).every((k) => pa[k] === pb[k])
  );
}
