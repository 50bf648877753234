// Stored rows → the ledger's records, and the proposal comparison that makes proposals immutable.
import { Prisma, type LedgerEvaluation as EvaluationRow } from "../db/generated/client";
import type { LedgerState } from "../db/generated/enums";
import type { EvaluationReceipt, LedgerPolicy, ProcedureAggregates, ProcedureProposal, ProcedureRecord, ProcedureState } from "./types";

export const stateOf = (s: LedgerState | string): ProcedureState => s.toLowerCase() as ProcedureState;
export const dbState = (s: ProcedureState): LedgerState => s.toUpperCase() as LedgerState;

/** A ledger_procedures row as the ledger's raw queries select it, decisions aggregated in order. */
export type ProcedureRow = {
  tenant: string;
  agent: string;
  environment: string;
  procedure_id: string;
  task: string;
  baseline_revision: string;
  instructions: string;
  source_refs: string[];
  qualification_trials: number;
  confidence_delta: number;
  min_improvement: number;
  min_candidate_utility: number;
  max_cost_units: bigint;
  max_latency_ms: bigint;
  max_failure_streak: number;
  evaluator_id: string;
  evaluation_contract: string;
  state: string;
  qualification_count: number;
  mean_improvement: number;
  mean_candidate_utility: number;
  budget_violations: number;
  lower_improvement_bound: number | null;
  monitoring_count: bigint;
  failure_streak: number;
  created_at: Date;
  decisions: { from: string; to: string; reason: string; triggering_case: string; recorded_at: string }[];
};

/** The select list for ProcedureRow (alias p); json timestamps are ISO-8601 strings. */
export const PROCEDURE_COLUMNS = Prisma.sql`
  p.tenant, p.agent, p.environment, p.procedure_id, p.task, p.baseline_revision, p.instructions, p.source_refs,
  p.qualification_trials, p.confidence_delta, p.min_improvement, p.min_candidate_utility, p.max_cost_units,
  p.max_latency_ms, p.max_failure_streak, p.evaluator_id, p.evaluation_contract, p.state::text AS state,
  p.qualification_count, p.mean_improvement, p.mean_candidate_utility, p.budget_violations,
  p.lower_improvement_bound, p.monitoring_count, p.failure_streak, p.created_at,
  COALESCE((SELECT json_agg(json_build_object('from', d.from_state, 'to', d.to_state, 'reason', d.reason,
      'triggering_case', d.triggering_case, 'recorded_at', d.recorded_at) ORDER BY d.seq)
    FROM ledger_decisions d
    WHERE d.tenant = p.tenant AND d.agent = p.agent AND d.environment = p.environment
      AND d.procedure_id = p.procedure_id), '[]'::json) AS decisions`;

/** int8 columns: bigint through Prisma, a decimal string through pg. */
type Int8 = bigint | string;
type PolicyColumns = Pick<ProcedureRow, "qualification_trials" | "confidence_delta" | "min_improvement" | "min_candidate_utility" | "max_failure_streak" | "evaluator_id" | "evaluation_contract"> & {
  max_cost_units: Int8;
  max_latency_ms: Int8;
};
type AggregateColumns = Pick<ProcedureRow, "state" | "qualification_count" | "mean_improvement" | "mean_candidate_utility" | "budget_violations" | "lower_improvement_bound" | "failure_streak"> & {
  monitoring_count: Int8;
};

function policyOf(row: PolicyColumns): LedgerPolicy {
  return {
    qualification_trials: row.qualification_trials,
    confidence_delta: row.confidence_delta,
    min_improvement: row.min_improvement,
    min_candidate_utility: row.min_candidate_utility,
    max_cost_units: Number(row.max_cost_units),
    max_latency_ms: Number(row.max_latency_ms),
    max_failure_streak: row.max_failure_streak,
    evaluator_id: row.evaluator_id,
    evaluation_contract: row.evaluation_contract,
  };
}

export function aggregatesOf(row: AggregateColumns): ProcedureAggregates {
  return {
    state: stateOf(row.state),
    qualification_count: row.qualification_count,
    mean_improvement: row.mean_improvement,
    mean_candidate_utility: row.mean_candidate_utility,
    budget_violations: row.budget_violations,
    lower_improvement_bound: row.lower_improvement_bound,
    monitoring_count: Number(row.monitoring_count),
    failure_streak: row.failure_streak,
  };
}

export function recordOf(row: ProcedureRow): ProcedureRecord {
  return {
    scope: { tenant: row.tenant, agent: row.agent, environment: row.environment },
    proposal: {
      id: row.procedure_id,
      task: row.task,
      baseline_revision: row.baseline_revision,
      instructions: row.instructions,
      source_refs: row.source_refs,
      policy: policyOf(row),
    },
    ...aggregatesOf(row),
    decisions: row.decisions.map((d) => ({
      from: stateOf(d.from),
      to: stateOf(d.to),
      reason: d.reason,
      triggering_case: d.triggering_case,
      recorded_at: new Date(d.recorded_at),
    })),
    created_at: row.created_at,
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
