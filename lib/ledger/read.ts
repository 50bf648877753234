// Read calls (spec §1.11, §4): get, evaluation and select. They validate their arguments like
// the writes do and take no locks.
import type { Db } from "../db/prisma";
import { selectionKey } from "./keys";
import { receiptOf, recordOf } from "./records";
import { INSTRUCTION_BYTES, ledgerIdSchema, parseLedger, scopeSchema, selectionSchema, type ScopeInput, type SelectionInput } from "./schemas";
import { ensureLedgerSchema } from "./schema-version";
import type { EvaluationReceipt, ProcedureRecord } from "./types";

const withDecisions = { decisions: { orderBy: { seq: "asc" as const } } };

export async function getProcedure(db: Db, scopeInput: ScopeInput, id: string): Promise<ProcedureRecord | null> {
  const scope = parseLedger(scopeSchema, scopeInput, "scope", "/scope");
  const procedureId = parseLedger(ledgerIdSchema, id, "procedure id", "/procedure_id");
  await ensureLedgerSchema(db);
  const row = await db.ledgerProcedure.findUnique({
    where: { tenant_agent_environment_procedureId: { ...scope, procedureId } },
    include: withDecisions,
  });
  return row ? recordOf(row) : null;
}

export async function getEvaluation(db: Db, scopeInput: ScopeInput, id: string, caseId: string): Promise<EvaluationReceipt | null> {
  const scope = parseLedger(scopeSchema, scopeInput, "scope", "/scope");
  const procedureId = parseLedger(ledgerIdSchema, id, "procedure id", "/procedure_id");
  const case_id = parseLedger(ledgerIdSchema, caseId, "case id", "/case_id");
  await ensureLedgerSchema(db);
  const row = await db.ledgerEvaluation.findUnique({
    where: { tenant_agent_environment_procedureId_caseId: { ...scope, procedureId, caseId: case_id } },
  });
  return row ? receiptOf(row) : null;
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
  await ensureLedgerSchema(db);
  const row = await db.ledgerProcedure.findFirst({
    where: {
      ...scope,
      selectionKey: selectionKey(q.task, q.baseline_revision, q.evaluation_contract),
      state: "ACTIVE",
      task: q.task,
      baselineRevision: q.baseline_revision,
      evaluationContract: q.evaluation_contract,
      // Instructions never exceed INSTRUCTION_BYTES, so a larger budget means the same (and fits int4).
      instructionBytes: { lte: Math.min(q.max_instruction_bytes, INSTRUCTION_BYTES) },
    },
    orderBy: [{ lowerImprovementBound: "desc" }, { procedureId: "asc" }],
    include: withDecisions,
  });
  return row ? recordOf(row) : null;
}
