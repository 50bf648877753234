// propose: a new Candidate, or — for the same id in the same scope — the current
// record when the proposal is identical and a ConstraintViolation when anything differs.
// Called by agents with ingest keys (POST /ledger/procedures) and inside a skill's
// qualification; not audited: the procedure row is its own record.
import type { Db, Tx } from "../../db/prisma";
import { LedgerError } from "../errors";
import { selectionKey } from "../keys";
import { getProcedure } from "../read";
import { sameProposal } from "../records";
import { parseLedger, proposalSchema, scopeSchema, type ProposalInput, type ScopeInput } from "../schemas";
import { ensureLedgerSchema } from "../schema-version";
import { utf8Bytes } from "../text";
import type { ProcedureRecord } from "../types";

/** The request body of POST /ledger/procedures: the proposal and its scope, checked here. */
export type ProposeProcedureInput = ProposalInput & { scope: ScopeInput };

export async function proposeProcedure(db: Db | Tx, input: ProposeProcedureInput): Promise<{ record: ProcedureRecord; created: boolean }> {
  const { scope: scopeInput, ...proposalInput } = input;
  const scope = parseLedger(scopeSchema, scopeInput, "scope", "/scope");
  const proposal = parseLedger(proposalSchema, proposalInput, "proposal");
  await ensureLedgerSchema(db);
  const createdAt = new Date();
  const p = proposal.policy;
  // One statement: concurrent identical proposals insert once, the others fall through to compare.
  const { count } = await db.ledgerProcedure.createMany({
    skipDuplicates: true,
    data: [
      {
        ...scope,
        procedureId: proposal.id,
        task: proposal.task,
        baselineRevision: proposal.baseline_revision,
        instructions: proposal.instructions,
        instructionBytes: utf8Bytes(proposal.instructions),
        sourceRefs: proposal.source_refs,
        qualificationTrials: p.qualification_trials,
        confidenceDelta: p.confidence_delta,
        minImprovement: p.min_improvement,
        minCandidateUtility: p.min_candidate_utility,
        maxCostUnits: BigInt(p.max_cost_units),
        maxLatencyMs: BigInt(p.max_latency_ms),
        maxFailureStreak: p.max_failure_streak,
        evaluatorId: p.evaluator_id,
        evaluationContract: p.evaluation_contract,
        selectionKey: selectionKey(proposal.task, proposal.baseline_revision, p.evaluation_contract),
        createdAt,
      },
    ],
  });
  if (count === 1) {
    return {
      created: true,
      record: {
        scope,
        proposal,
        state: "candidate",
        qualification_count: 0,
        mean_improvement: 0,
        mean_candidate_utility: 0,
        budget_violations: 0,
        lower_improvement_bound: null,
        monitoring_count: 0,
        failure_streak: 0,
        decisions: [],
        created_at: createdAt,
      },
    };
  }
  const existing = await getProcedure(db, scope, proposal.id);
  if (!existing) throw new Error("ledger procedure vanished after a conflicting insert");
  if (!sameProposal(existing.proposal, proposal)) {
    throw new LedgerError("ConstraintViolation", "Procedure revisions are immutable; use a new ID");
  }
  // The current record, which may already be Active, Rejected or Suspended.
  return { record: existing, created: false };
}
