// Read models for the console's ledger pages: the procedures table, one procedure's
// evaluations and the running qualification series for its chart. Read-only.
import { z } from "zod";
import type { Prisma } from "../db/generated/client";
import type { Db } from "../db/prisma";
import { clampBound, hoeffdingRadius } from "./arithmetic";
import { receiptOf, dbState, stateOf } from "./records";
import { checkLedgerSchema } from "./schema-version";
import { PROCEDURE_STATES, type EvaluationReceipt, type LedgerScope, type ProcedureState } from "./types";

const optionalText = z.string().trim().min(1).optional().catch(undefined);
const pageNumber = z.coerce.number().int().min(1).max(100_000).catch(1);

/** The table's URL state; unreadable values fall back rather than erroring. */
export const procedureListQuery = z.object({
  tenant: optionalText,
  agent: optionalText,
  environment: optionalText,
  task: optionalText,
  state: z.enum(PROCEDURE_STATES).optional().catch(undefined),
  page: pageNumber,
});
export type ProcedureListQuery = z.output<typeof procedureListQuery>;

export type ProcedureSummary = {
  scope: LedgerScope;
  id: string;
  task: string;
  baseline_revision: string;
  evaluation_contract: string;
  state: ProcedureState;
  qualification_count: number;
  qualification_trials: number;
  mean_improvement: number;
  min_improvement: number;
  lower_improvement_bound: number | null;
  failure_streak: number;
  max_failure_streak: number;
  budget_violations: number;
  monitoring_count: number;
  created_at: Date;
};

export const PAGE_SIZE = 25;

/** Newest first; narrow columns only (no instructions). Filters are exact matches. */
export async function listProcedures(db: Db, q: ProcedureListQuery, pageSize = PAGE_SIZE): Promise<{ rows: ProcedureSummary[]; total: number }> {
  await checkLedgerSchema(db);
  const where: Prisma.LedgerProcedureWhereInput = {
    tenant: q.tenant,
    agent: q.agent,
    environment: q.environment,
    task: q.task,
    state: q.state ? dbState(q.state) : undefined,
  };
  const [rows, total] = await Promise.all([
    db.ledgerProcedure.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { procedureId: "asc" }],
      skip: (q.page - 1) * pageSize,
      take: pageSize,
      select: {
        tenant: true,
        agent: true,
        environment: true,
        procedureId: true,
        task: true,
        baselineRevision: true,
        evaluationContract: true,
        state: true,
        qualificationCount: true,
        qualificationTrials: true,
        meanImprovement: true,
        minImprovement: true,
        lowerImprovementBound: true,
        failureStreak: true,
        maxFailureStreak: true,
        budgetViolations: true,
        monitoringCount: true,
        createdAt: true,
      },
    }),
    db.ledgerProcedure.count({ where }),
  ]);
  return {
    total,
    rows: rows.map((r) => ({
      scope: { tenant: r.tenant, agent: r.agent, environment: r.environment },
      id: r.procedureId,
      task: r.task,
      baseline_revision: r.baselineRevision,
      evaluation_contract: r.evaluationContract,
      state: stateOf(r.state),
      qualification_count: r.qualificationCount,
      qualification_trials: r.qualificationTrials,
      mean_improvement: r.meanImprovement,
      min_improvement: r.minImprovement,
      lower_improvement_bound: r.lowerImprovementBound,
      failure_streak: r.failureStreak,
      max_failure_streak: r.maxFailureStreak,
      budget_violations: r.budgetViolations,
      monitoring_count: Number(r.monitoringCount),
      created_at: r.createdAt,
    })),
  };
}

/** One page of a procedure's receipts in arrival order (the order the streak followed). */
export async function listEvaluations(
  db: Db,
  scope: LedgerScope,
  procedureId: string,
  page: number,
  pageSize = PAGE_SIZE,
): Promise<{ rows: (EvaluationReceipt & { seq: number })[]; total: number }> {
  await checkLedgerSchema(db);
  const where = { ...scope, procedureId };
  const [rows, total] = await Promise.all([
    db.ledgerEvaluation.findMany({ where, orderBy: { seq: "asc" }, skip: (page - 1) * pageSize, take: pageSize }),
    db.ledgerEvaluation.count({ where }),
  ]);
  return { total, rows: rows.map((r) => ({ ...receiptOf(r), seq: r.seq })) };
}

export type SeriesPoint = { n: number; mean_improvement: number; lower_bound: number };

/**
 * The running mean improvement after each qualification case and the Hoeffding bound it would
 * have at that n (clamped at −1), thinned to at most `maxPoints`. Only the point at
 * n = qualification_trials is a decision; the others show how the evidence accumulated.
 */
export async function qualificationSeries(db: Db, scope: LedgerScope, procedureId: string, confidenceDelta: number, maxPoints = 400): Promise<SeriesPoint[]> {
  await checkLedgerSchema(db);
  const count = await db.ledgerEvaluation.count({ where: { ...scope, procedureId, phase: "QUALIFICATION" } });
  if (count === 0) return [];
  const step = Math.max(1, Math.ceil(count / maxPoints));
  // Qualification cases are seq 1..count (monitoring only starts after qualification ends).
  const rows = await db.$queryRaw<{ n: number; mean: number }[]>`
    SELECT n::int AS n, mean FROM (
      SELECT row_number() OVER w AS n, avg(candidate_utility - baseline_utility) OVER w AS mean
      FROM ledger_evaluations
      WHERE tenant = ${scope.tenant} AND agent = ${scope.agent} AND environment = ${scope.environment}
        AND procedure_id = ${procedureId} AND phase = 'QUALIFICATION'
      WINDOW w AS (ORDER BY seq ROWS UNBOUNDED PRECEDING)
    ) s
    WHERE n % ${step} = 0 OR n = ${count} OR n = 1
    ORDER BY n`;
  return rows.map((r) => ({
    n: r.n,
    mean_improvement: r.mean,
    lower_bound: clampBound(r.mean - hoeffdingRadius(confidenceDelta, r.n)),
  }));
}
