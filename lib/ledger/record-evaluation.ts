// record_evaluation: the input is validated here, then one call of the SQL function
// ledger_record_evaluation (migration 20261201144500_record_evaluation_function) checks the case
// in the reference implementation's order under the procedure's row lock and commits its
// receipt (which is also the evidence claim), the aggregates and any decision. A failed call
// writes nothing. Before it, an
// evidence_ref `run:…` / `trace:…` must name a stored run (./evidence.ts: one indexed probe, only for those forms).
//
// One round trip per evaluation, because under the row lock every round trip is paid by every
// waiting evaluation. The one exception is the case that decides qualification: the Hoeffding
// radius needs ln, whose last bit differs between libms, so the function asks for it and the
// call is repeated with the radius computed here (lib/ledger/arithmetic.ts), as the ledger's
// arithmetic is bit-exact.
// The call goes straight to the client's pg pool: through Prisma a single-row UPDATE costs the
// client about twice the CPU (`npm run bench:pg-path`), and the row lock is held meanwhile.
// `npm run bench:ledger` holds evaluations to at least half the rate of plain single-row
// transactions on the same database; a read-then-commit sequence of statements stays well
// below that (figures: docs/benchmarks.md#ledger).
//
// A skill's procedure (id `skill:…`, ./skills.ts) is evaluated in a Prisma transaction instead:
// when its evaluation suspends it, the skill is demoted and audited in that same transaction
// (demoteSuspendedSkill), so the suspension and the demotion commit together or not at all.
// Those evaluations come from an admin's qualification run or an experiment's completion, a
// few per skill, never the agents' hot path.
import { pgPool, type Db, type Tx } from "../db/prisma";
import { hoeffdingRadius } from "./arithmetic";
import { LedgerError, type LedgerErrorKind } from "./errors";
import { requireStoredEvidence } from "./evidence";
import { evidenceKey } from "./keys";
import { stateOf } from "./records";
import { evaluationSchema, ledgerIdSchema, parseLedger, scopeSchema, type EvaluationInput, type ScopeInput } from "./schemas";
import { ensureLedgerSchema } from "./schema-version";
import { demoteSuspendedSkill, isSkillProcedureId } from "./skills";
import type { EvaluationResult, LedgerScope, PairedEvaluation } from "./types";

/** The function's refusals, in the reference implementation's variants and words. */
const REFUSALS: Record<string, [LedgerErrorKind, string]> = {
  not_found: ["KeyNotFound", "Procedure not found in this scope"],
  case_conflict: ["ConstraintViolation", "Case ID already has different evidence"],
  evaluator_mismatch: ["ValidationError", "Evaluation does not match the registered evaluator and contract"],
  evidence_is_source: ["ValidationError", "Proposal evidence cannot also be held-out evaluation evidence"],
  evidence_claimed: ["ConstraintViolation", "Evidence reference already used by another case"],
  phase_mismatch: ["MemoryOperation", "Evaluation phase does not match procedure state"],
  counter_exhausted: ["MemoryOperation", "Monitoring counter exhausted"],
};

/** The function's waits for the procedure's row lock are bounded by its lock_timeout (30 s). */
const SKILL_TRANSACTION_MS = 40_000;

// int8 columns arrive as strings from pg, as bigints from Prisma.
type OutcomeRow = {
  outcome: string;
  state_after: string | null;
  recorded_at: Date | null;
  phase: string | null;
  evaluator_id: string;
  evaluation_contract: string;
  evidence_ref: string;
  baseline_utility: number;
  candidate_utility: number;
  candidate_cost_units: string | bigint;
  candidate_latency_ms: string | bigint;
  confidence_delta: number | null;
  qualification_trials: number | null;
};

export async function recordEvaluation(
  db: Db,
  scopeInput: ScopeInput,
  procedureId: string,
  evaluationInput: EvaluationInput,
): Promise<EvaluationResult> {
  const { scope, id, e } = parseCall(scopeInput, procedureId, evaluationInput);
  await ensureLedgerSchema(db);
  await requireStoredEvidence(db, scope, e.evidence_ref);
  const row = isSkillProcedureId(id)
    ? await db.$transaction((tx) => evaluateSkill(tx, scope, id, e), { timeout: SKILL_TRANSACTION_MS })
    : await evaluate(viaPool(db), scope, id, e);
  return resultOf(row, e);
}

/**
 * A skill procedure's evaluation inside the caller's transaction, for a caller whose own
 * state must hold while the ledger writes (an experiment's completion under its row lock).
 */
export async function recordSkillEvaluation(tx: Tx, scopeInput: ScopeInput, procedureId: string, evaluationInput: EvaluationInput): Promise<EvaluationResult> {
  const { scope, id, e } = parseCall(scopeInput, procedureId, evaluationInput);
  if (!isSkillProcedureId(id)) throw new LedgerError("ValidationError", "Only a skill's procedure is evaluated in a caller's transaction.");
  await ensureLedgerSchema(tx);
  await requireStoredEvidence(tx, scope, e.evidence_ref);
  return resultOf(await evaluateSkill(tx, scope, id, e), e);
}

function parseCall(scopeInput: ScopeInput, procedureId: string, evaluationInput: EvaluationInput) {
  return {
    scope: parseLedger(scopeSchema, scopeInput, "scope", "/scope"),
    id: parseLedger(ledgerIdSchema, procedureId, "procedure id", "/procedure_id"),
    e: parseLedger(evaluationSchema, evaluationInput, "evaluation"),
  };
}

async function evaluateSkill(tx: Tx, scope: LedgerScope, id: string, e: PairedEvaluation): Promise<OutcomeRow> {
  const r = await evaluate(viaTransaction(tx), scope, id, e);
  // Only an ACTIVE procedure takes an evaluation, so a recorded SUSPENDED is this one's suspension.
  if (r.outcome === "recorded" && r.state_after === "SUSPENDED") await demoteSuspendedSkill(tx, scope, id);
  return r;
}

function resultOf(row: OutcomeRow, e: PairedEvaluation): EvaluationResult {
  switch (row.outcome) {
    case "recorded":
      return { receipt: { evaluation: e, state_after: stateOf(row.state_after!), recorded_at: row.recorded_at! }, duplicate: false };
    case "duplicate": {
      const stored: PairedEvaluation = {
        case_id: e.case_id,
        phase: row.phase === "QUALIFICATION" ? "qualification" : "monitoring",
        evaluator_id: row.evaluator_id,
        evaluation_contract: row.evaluation_contract,
        evidence_ref: row.evidence_ref,
        baseline_utility: row.baseline_utility,
        candidate_utility: row.candidate_utility,
        candidate_cost_units: Number(row.candidate_cost_units),
        candidate_latency_ms: Number(row.candidate_latency_ms),
      };
      return { receipt: { evaluation: stored, state_after: stateOf(row.state_after!), recorded_at: row.recorded_at! }, duplicate: true };
    }
  }
  const refusal = REFUSALS[row.outcome];
  if (!refusal) throw new Error(`ledger_record_evaluation answered an unknown outcome: ${row.outcome}`);
  throw new LedgerError(...refusal);
}

/** Sends the function's call with its arguments: on the pg pool, or in a Prisma transaction. */
type Caller = (args: unknown[]) => Promise<OutcomeRow>;

const CALL = `SELECT * FROM ledger_record_evaluation($1, $2, $3, $4, $5, $6::"LedgerPhase", $7, $8, $9, $10, $11::float8, $12::float8, $13::bigint, $14::bigint, $15::float8)`;

const viaPool =
  (db: Db): Caller =>
  async (args) =>
    (await pgPool(db).query<OutcomeRow>(CALL, args)).rows[0];

const viaTransaction =
  (tx: Tx): Caller =>
  async (args) =>
    (await tx.$queryRawUnsafe<OutcomeRow[]>(CALL, ...args))[0];

async function evaluate(call: Caller, scope: LedgerScope, id: string, e: PairedEvaluation): Promise<OutcomeRow> {
  const row = await call(callArgs(scope, id, e, null));
  if (row.outcome !== "radius_needed") return row;
  // The policy is immutable, so the radius stays right whatever happens before the repeat.
  return call(callArgs(scope, id, e, hoeffdingRadius(row.confidence_delta!, row.qualification_trials!)));
}

function callArgs(scope: LedgerScope, id: string, e: PairedEvaluation, radius: number | null): unknown[] {
  return [
    scope.tenant,
    scope.agent,
    scope.environment,
    id,
    e.case_id,
    e.phase.toUpperCase(),
    e.evaluator_id,
    e.evaluation_contract,
    e.evidence_ref,
    evidenceKey(e.evidence_ref),
    e.baseline_utility,
    e.candidate_utility,
    e.candidate_cost_units,
    e.candidate_latency_ms,
    radius,
  ];
}
