// Read calls: get, evaluation and select. They validate their arguments like
// the writes do and take no locks.
import { Prisma } from "../db/generated/client";
import type { Db, Tx } from "../db/prisma";
import { selectionKey } from "./keys";
import { PROCEDURE_COLUMNS, receiptOf, recordOf, type ProcedureRow } from "./records";
import { INSTRUCTION_BYTES, ledgerIdSchema, parseLedger, scopeSchema, selectionSchema, type ScopeInput, type SelectionInput } from "./schemas";
import { checkLedgerSchema } from "./schema-version";
import type { EvaluationReceipt, LedgerScope, ProcedureRecord } from "./types";

/** Procedure records matching `where` (over alias p), with their decisions; one round trip. */
export async function procedureRecords(db: Db | Tx, where: Prisma.Sql, tail: Prisma.Sql = Prisma.empty): Promise<ProcedureRecord[]> {
  const rows = await db.$queryRaw<ProcedureRow[]>`SELECT ${PROCEDURE_COLUMNS} FROM ledger_procedures p WHERE ${where} ${tail}`;
  return rows.map(recordOf);
}

const inScope = (s: LedgerScope) => Prisma.sql`p.tenant = ${s.tenant} AND p.agent = ${s.agent} AND p.environment = ${s.environment}`;

export async function getProcedure(db: Db | Tx, scopeInput: ScopeInput, id: string): Promise<ProcedureRecord | null> {
  const scope = parseLedger(scopeSchema, scopeInput, "scope", "/scope");
  const procedureId = parseLedger(ledgerIdSchema, id, "procedure id", "/procedure_id");
  await checkLedgerSchema(db);
  const [record] = await procedureRecords(db, Prisma.sql`${inScope(scope)} AND p.procedure_id = ${procedureId}`);
  return record ?? null;
}

export async function getEvaluation(db: Db, scopeInput: ScopeInput, id: string, caseId: string): Promise<EvaluationReceipt | null> {
  const scope = parseLedger(scopeSchema, scopeInput, "scope", "/scope");
  const procedureId = parseLedger(ledgerIdSchema, id, "procedure id", "/procedure_id");
  const case_id = parseLedger(ledgerIdSchema, caseId, "case id", "/case_id");
  await checkLedgerSchema(db);
  const row = await db.ledgerEvaluation.findUnique({
    where: { tenant_agent_environment_procedureId_caseId: { ...scope, procedureId, caseId: case_id } },
  });
  return row ? receiptOf(row) : null;
}

/**
 * Which of `in`, and which case ids starting with `prefix`, the procedure holds an evaluation
 * for (a caller that keys its cases by content asks what it already counted).
 */
export async function evaluatedCaseIds(db: Db | Tx, scope: LedgerScope, id: string, cases: { in: string[]; prefix: string }): Promise<string[]> {
  await checkLedgerSchema(db);
  const rows = await db.ledgerEvaluation.findMany({
    where: { ...scope, procedureId: id, OR: [{ caseId: { in: cases.in } }, { caseId: { startsWith: cases.prefix } }] },
    select: { caseId: true },
  });
  return rows.map((r) => r.caseId);
}

/**
 * The Active procedure for exactly this task, baseline and contract whose instructions fit the
 * byte budget, with the highest bound; equal bounds go to the smaller id in UTF-8 byte order
 * (procedure_id is COLLATE "C"). The selection index is walked in that order and the first
 * row that fits the budget wins, so the scope is never decoded as a whole. Null: use the baseline.
 */
export async function selectProcedure(db: Db, scopeInput: ScopeInput, queryInput: SelectionInput): Promise<ProcedureRecord | null> {
  const scope = parseLedger(scopeSchema, scopeInput, "scope", "/scope");
  const q = parseLedger(selectionSchema, queryInput, "selection");
  await checkLedgerSchema(db);
  // Instructions never exceed INSTRUCTION_BYTES, so a larger budget selects the same (and fits int4).
  const budget = Math.min(q.max_instruction_bytes, INSTRUCTION_BYTES);
  const [record] = await procedureRecords(
    db,
    Prisma.sql`${inScope(scope)} AND p.selection_key = ${selectionKey(q.task, q.baseline_revision, q.evaluation_contract)}
      AND p.state = 'ACTIVE' AND p.task = ${q.task} AND p.baseline_revision = ${q.baseline_revision}
      AND p.evaluation_contract = ${q.evaluation_contract} AND p.instruction_bytes <= ${budget}::int`,
    Prisma.sql`ORDER BY p.lower_improvement_bound DESC, p.procedure_id ASC LIMIT 1`,
  );
  return record ?? null;
}
