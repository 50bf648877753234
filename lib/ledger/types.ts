// The evidence ledger's records, in the wire shape of the agent API (snake_case fields,
// lowercase states and phases); the state machine is in ./arithmetic.ts. The inputs' types are
// their schemas' outputs (./schemas.ts), so a field is declared once.
import type { z } from "zod";
import type { evaluationSchema, policySchema, proposalSchema, scopeSchema } from "./schemas";

/** Partition key. Labels only partition data; the host derives them from an authenticated principal. */
export type LedgerScope = z.output<typeof scopeSchema>;

/** Fixed per proposal. Cost and latency are hard per-trial limits. */
export type LedgerPolicy = z.output<typeof policySchema>;

/** Immutable: a revision needs a new id and new cases. */
export type ProcedureProposal = z.output<typeof proposalSchema>;

export const PROCEDURE_STATES = ["candidate", "active", "rejected", "suspended"] as const;
export type ProcedureState = (typeof PROCEDURE_STATES)[number];

/** One held-out case: candidate and baseline scored on the same case. */
export type PairedEvaluation = z.output<typeof evaluationSchema>;

export type EvaluationPhase = PairedEvaluation["phase"];

export type LedgerDecision = {
  from: ProcedureState;
  to: ProcedureState;
  reason: string;
  triggering_case: string;
  recorded_at: Date;
};

/** The counters and means that evaluations move. */
export type ProcedureAggregates = {
  state: ProcedureState;
  qualification_count: number;
  mean_improvement: number;
  mean_candidate_utility: number;
  budget_violations: number;
  lower_improvement_bound: number | null;
  monitoring_count: number;
  failure_streak: number;
};

export type ProcedureRecord = ProcedureAggregates & {
  scope: LedgerScope;
  proposal: ProcedureProposal;
  decisions: LedgerDecision[];
  created_at: Date;
};

/** Stored once and never changed; state_after is the state right after this case. */
export type EvaluationReceipt = { evaluation: PairedEvaluation; state_after: ProcedureState; recorded_at: Date };

/** On a duplicate delivery the receipt is the original one, with its original state_after. */
export type EvaluationResult = { receipt: EvaluationReceipt; duplicate: boolean };
