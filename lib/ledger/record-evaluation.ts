// record_evaluation (spec §3.2): checks a case in the spec's order, then commits its receipt
// (which is also the evidence claim), the aggregate update and any decision in one transaction
// under the procedure's row lock. A failed call writes nothing.
//
// Two ways to the same commit. Uncontended (the usual case: evaluations spread over many
// procedures): one statement reads, one statement commits; the committing statement takes the
// row lock (SELECT … FOR UPDATE SKIP LOCKED) and writes only if the row was free and no case
// was accepted since the read.
// Contended (the row is locked or changed meanwhile): a transaction queues on SELECT … FOR
// UPDATE, re-reads under the lock and commits with the same statement.
// Both go straight to the client's pg pool: under the row lock every millisecond of client-side
// query cost is paid by every waiting evaluation, and Prisma's is more than twice pg's: a
// single-row UPDATE costs the client 237 µs of CPU through Prisma, 103 µs through pg, at
// concurrency 8 (scripts/bench/pg-path.ts).
import type pg from "pg";
import { pgPool, type Db } from "../db/prisma";
import { acceptsPhase, applyEvaluation } from "./arithmetic";
import { LedgerError } from "./errors";
import { evidenceKey } from "./keys";
import { aggregatesOf, dbState, policyOf, stateOf } from "./records";
import { evaluationSchema, ledgerIdSchema, parseLedger, scopeSchema, type EvaluationInput, type ScopeInput } from "./schemas";
import { ensureLedgerSchema } from "./schema-version";
import type { EvaluationResult, LedgerScope, PairedEvaluation } from "./types";

// Waiting for the procedure's lock under load is normal; give it room, but not forever.
const STATEMENT_TIMEOUT_MS = 30_000;
const ATTEMPTS = 3;
const UNIQUE_VIOLATION = "23505";
/** The optimistic commit found the procedure locked or changed: take the queued path. */
const CONTENDED: unique symbol = Symbol("contended");

export async function recordEvaluation(
  db: Db,
  scopeInput: ScopeInput,
  procedureId: string,
  evaluationInput: EvaluationInput,
): Promise<EvaluationResult> {
  const scope = parseLedger(scopeSchema, scopeInput, "scope", "/scope");
  const id = parseLedger(ledgerIdSchema, procedureId, "procedure id", "/procedure_id");
  const evaluation = parseLedger(evaluationSchema, evaluationInput, "evaluation");
  await ensureLedgerSchema(db);
  const pool = pgPool(db);
  const key = JSON.stringify([scope.tenant, scope.agent, scope.environment, id]);
  if (!isHot(key)) {
    const fast: EvaluationResult | typeof CONTENDED = await attempt(pool, scope, id, evaluation, false).catch((e) => {
      if (isDbError(e, UNIQUE_VIOLATION)) return CONTENDED;
      throw e;
    });
    if (fast !== CONTENDED) return fast;
    markHot(key);
  }
  for (let n = 1; ; n++) {
    try {
      return await inTransaction(pool, async (client) => {
        const result = await attempt(client, scope, id, evaluation, true);
        if (result === CONTENDED) throw new Error("ledger: the procedure changed under its own row lock");
        return result;
      });
    } catch (e) {
      // A concurrent delivery of the same case (or evidence) committed after the read's
      // snapshot: the retry re-reads it and classifies it as duplicate or conflict.
      if (n < ATTEMPTS && isDbError(e, UNIQUE_VIOLATION)) continue;
      throw e;
    }
  }
}

async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query(`BEGIN; SET LOCAL statement_timeout = ${STATEMENT_TIMEOUT_MS}`);
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (e) {
    await client.query("ROLLBACK").catch(() => (broken = true));
    throw e;
  } finally {
    client.release(broken);
  }
}

// Procedures found contended recently skip the optimistic attempt for a while: under a steady
// stream of concurrent evaluations on one procedure it would mostly fail. A hint for this
// process only; both paths give the same result.
const HOT_MS = 2_000;
const MAX_HOT = 1_000;
const hotUntil = new Map<string, number>();

function isHot(key: string): boolean {
  const until = hotUntil.get(key);
  if (until === undefined) return false;
  if (until > Date.now()) return true;
  hotUntil.delete(key);
  return false;
}

function markHot(key: string) {
  hotUntil.delete(key);
  hotUntil.set(key, Date.now() + HOT_MS);
  if (hotUntil.size > MAX_HOT) hotUntil.delete(hotUntil.keys().next().value as string);
}

// int8 columns arrive as strings from pg.
type ReadRow = {
  state: string;
  qualification_count: number;
  mean_improvement: number;
  mean_candidate_utility: number;
  budget_violations: number;
  lower_improvement_bound: number | null;
  monitoring_count: string;
  failure_streak: number;
  decision_count: string;
  source_refs: string[];
  qualification_trials: number;
  confidence_delta: number;
  min_improvement: number;
  min_candidate_utility: number;
  max_cost_units: string;
  max_latency_ms: string;
  max_failure_streak: number;
  evaluator_id: string;
  evaluation_contract: string;
  evidence_claimed_by: string | null;
  r_phase: string | null;
  r_evaluator_id: string;
  r_evaluation_contract: string;
  r_evidence_ref: string;
  r_baseline_utility: number;
  r_candidate_utility: number;
  r_cost: string;
  r_latency: string;
  r_state_after: string;
  r_recorded_at: Date;
};

async function attempt(q: pg.Pool | pg.PoolClient, scope: LedgerScope, id: string, e: PairedEvaluation, lock: boolean): Promise<EvaluationResult | typeof CONTENDED> {
  const evidence = evidenceKey(e.evidence_ref);
  // Locked path: take the row lock first, then read in a new statement. Under READ COMMITTED a
  // FOR UPDATE read would re-fetch the procedure at lock time but join receipts from its older
  // snapshot, so the case the lock holder just committed could look new to a now-Active
  // procedure (a duplicate answered as a phase error).
  if (lock) {
    await q.query(
      `SELECT 1 FROM ledger_procedures WHERE tenant = $1 AND agent = $2 AND environment = $3 AND procedure_id = $4 FOR UPDATE`,
      [scope.tenant, scope.agent, scope.environment, id],
    );
  }
  // The procedure, the stored receipt for this case and the evidence claim in one round trip
  // (a racing identical insert can still collide on the unique keys; the caller retries).
  const { rows } = await q.query<ReadRow>(
    `
    SELECT p.state::text AS state, p.qualification_count, p.mean_improvement, p.mean_candidate_utility,
      p.budget_violations, p.lower_improvement_bound, p.monitoring_count, p.failure_streak, p.source_refs,
      p.qualification_trials, p.confidence_delta, p.min_improvement, p.min_candidate_utility,
      p.max_cost_units, p.max_latency_ms, p.max_failure_streak, p.evaluator_id, p.evaluation_contract,
      (SELECT count(*) FROM ledger_decisions d
        WHERE d.tenant = p.tenant AND d.agent = p.agent AND d.environment = p.environment
          AND d.procedure_id = p.procedure_id) AS decision_count,
      (SELECT c.case_id FROM ledger_evaluations c
        WHERE c.tenant = p.tenant AND c.agent = p.agent AND c.environment = p.environment
          AND c.procedure_id = p.procedure_id AND c.evidence_key = $1 AND c.evidence_ref = $2) AS evidence_claimed_by,
      r.phase::text AS r_phase, r.evaluator_id AS r_evaluator_id, r.evaluation_contract AS r_evaluation_contract,
      r.evidence_ref AS r_evidence_ref, r.baseline_utility AS r_baseline_utility,
      r.candidate_utility AS r_candidate_utility, r.candidate_cost_units AS r_cost,
      r.candidate_latency_ms AS r_latency, r.state_after::text AS r_state_after, r.recorded_at AS r_recorded_at
    FROM ledger_procedures p
    LEFT JOIN ledger_evaluations r
      ON r.tenant = p.tenant AND r.agent = p.agent AND r.environment = p.environment
     AND r.procedure_id = p.procedure_id AND r.case_id = $3
    WHERE p.tenant = $4 AND p.agent = $5 AND p.environment = $6 AND p.procedure_id = $7
    `,
    [evidence, e.evidence_ref, e.case_id, scope.tenant, scope.agent, scope.environment, id],
  );
  const row = rows[0];
  // A receipt only exists under an existing procedure, so "no procedure" also means "no receipt".
  if (!row) throw new LedgerError("KeyNotFound", "Procedure not found in this scope");

  // 3. Duplicate or conflict: before every other check, whatever the state is now.
  if (row.r_phase !== null) {
    const stored: PairedEvaluation = {
      case_id: e.case_id,
      phase: row.r_phase === "QUALIFICATION" ? "qualification" : "monitoring",
      evaluator_id: row.r_evaluator_id,
      evaluation_contract: row.r_evaluation_contract,
      evidence_ref: row.r_evidence_ref,
      baseline_utility: row.r_baseline_utility,
      candidate_utility: row.r_candidate_utility,
      candidate_cost_units: Number(row.r_cost),
      candidate_latency_ms: Number(row.r_latency),
    };
    if (!sameEvaluation(stored, e)) throw new LedgerError("ConstraintViolation", "Case ID already has different evidence");
    return { receipt: { evaluation: stored, state_after: stateOf(row.r_state_after), recorded_at: row.r_recorded_at }, duplicate: true };
  }

  const policy = policyOf(row);
  // 5–8, in the spec's order.
  if (e.evaluator_id !== policy.evaluator_id || e.evaluation_contract !== policy.evaluation_contract) {
    throw new LedgerError("ValidationError", "Evaluation does not match the registered evaluator and contract");
  }
  if (row.source_refs.includes(e.evidence_ref)) {
    throw new LedgerError("ValidationError", "Proposal evidence cannot also be held-out evaluation evidence");
  }
  if (row.evidence_claimed_by !== null) {
    throw new LedgerError("ConstraintViolation", "Evidence reference already used by another case");
  }
  const current = aggregatesOf(row);
  if (!acceptsPhase(current.state, e.phase)) {
    throw new LedgerError("MemoryOperation", "Evaluation phase does not match procedure state");
  }

  // 9. Apply, then commit receipt, evidence claim, aggregates and decision in one statement.
  const { next, transition } = applyEvaluation(current, policy, e);
  const now = new Date();
  const seq = next.qualification_count + next.monitoring_count;
  // `locked` takes the row lock and holds the write to the aggregates this step was computed
  // from; set_config makes the commit synchronous whatever the server's default is.
  const { rows: [{ applied }] } = await q.query<{ applied: number }>(
    `
    WITH locked AS (
      SELECT 1 FROM ledger_procedures
      WHERE tenant = $1 AND agent = $2 AND environment = $3
        AND procedure_id = $4 AND qualification_count = $5::int
        AND monitoring_count = $6::bigint
      FOR UPDATE SKIP LOCKED
    ), receipt AS (
      INSERT INTO ledger_evaluations (tenant, agent, environment, procedure_id, case_id, seq, phase,
        evaluator_id, evaluation_contract, evidence_ref, evidence_key, baseline_utility, candidate_utility,
        candidate_cost_units, candidate_latency_ms, state_after, recorded_at)
      SELECT $1, $2, $3, $4, $7, $8::int,
        $9::"LedgerPhase", $10, $11, $12,
        $13, $14::float8, $15::float8,
        $16::bigint, $17::bigint, $18::"LedgerState", $19::timestamptz
      FROM locked
    ), decision AS (
      INSERT INTO ledger_decisions (tenant, agent, environment, procedure_id, seq, from_state, to_state, reason,
        triggering_case, recorded_at)
      SELECT $1, $2, $3, $4, $20::int,
        $21::"LedgerState", $22::"LedgerState",
        $23, $7, $19::timestamptz
      FROM locked WHERE $24::boolean
    ), updated AS (
      UPDATE ledger_procedures SET
        state = $18::"LedgerState",
        qualification_count = $25::int,
        mean_improvement = $26::float8,
        mean_candidate_utility = $27::float8,
        budget_violations = $28::int,
        lower_improvement_bound = $29::float8,
        monitoring_count = $30::bigint,
        failure_streak = $31::int
      WHERE tenant = $1 AND agent = $2 AND environment = $3
        AND procedure_id = $4 AND EXISTS (SELECT 1 FROM locked)
      RETURNING 1
    )
    SELECT set_config('synchronous_commit', 'on', true) AS sync, (SELECT count(*) FROM updated)::int AS applied`,
    [
      scope.tenant,
      scope.agent,
      scope.environment,
      id,
      current.qualification_count,
      current.monitoring_count,
      e.case_id,
      seq,
      e.phase.toUpperCase(),
      e.evaluator_id,
      e.evaluation_contract,
      e.evidence_ref,
      evidence,
      e.baseline_utility,
      e.candidate_utility,
      e.candidate_cost_units,
      e.candidate_latency_ms,
      dbState(next.state),
      now,
      Number(row.decision_count),
      transition ? dbState(transition.from) : null,
      transition ? dbState(transition.to) : null,
      transition?.reason ?? null,
      transition !== null,
      next.qualification_count,
      next.mean_improvement,
      next.mean_candidate_utility,
      next.budget_violations,
      next.lower_improvement_bound,
      next.monitoring_count,
      next.failure_streak,
    ],
  );
  if (applied !== 1) return CONTENDED;
  return { receipt: { evaluation: e, state_after: next.state, recorded_at: now }, duplicate: false };
}

/** Every field, floats exactly (so -0 equals 0, as Rust's PartialEq has it). */
function sameEvaluation(a: PairedEvaluation, b: PairedEvaluation): boolean {
  return (Object.keys(a) as (keyof PairedEvaluation)[]).every((k) => a[k] === b[k]);
}

/** A pg error with this SQLSTATE. */
function isDbError(e: unknown, sqlState: string): boolean {
  return (e as { code?: string } | null)?.code === sqlState;
}
