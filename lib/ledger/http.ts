// The ledger's HTTP surface (api.md § Evidence ledger): request shapes built from the core's
// schemas, path ids, and the mapping of the spec's error variants to problem codes.
import { z } from "zod";
import { ProblemError, problems } from "../api/problem";
import { LedgerError } from "./errors";
import { evaluationSchema, ledgerIdSchema, proposalSchema, scopeSchema, selectionSchema } from "./schemas";

export const proposeBody = proposalSchema.extend({ scope: scopeSchema });
export const evaluationBody = evaluationSchema.extend({ scope: scopeSchema });
export const scopeQuery = scopeSchema;
export const selectQuery = scopeSchema.extend({
  ...selectionSchema.shape,
  max_instruction_bytes: z
    .string()
    .regex(/^\d{1,16}$/, "must be a non-negative integer")
    .transform(Number)
    .pipe(selectionSchema.shape.max_instruction_bytes),
});

/** Procedure and case ids are any ledger text, percent-encoded in paths (not the generic id rule). */
export const procedureParams = z.object({ id: ledgerIdSchema });
export const caseParams = z.object({ id: ledgerIdSchema, case_id: ledgerIdSchema });

/** ValidationError → 400, ConstraintViolation → 409 conflict, KeyNotFound → 404, MemoryOperation → 409 invalid_state. */
export function ledgerProblem(e: unknown): unknown {
  if (!(e instanceof LedgerError)) return e;
  switch (e.kind) {
    case "ValidationError":
      return problems.validation(e.message, e.errors);
    case "ConstraintViolation":
      return problems.conflict(e.message);
    case "KeyNotFound":
      return new ProblemError("not_found", e.message);
    case "MemoryOperation":
      return problems.invalidState(e.message);
    case "Configuration":
      console.error(`evidence ledger refused to start: ${e.message}`);
      return problems.unavailable("The evidence ledger refuses to start: its stored schema version is not supported by this build.");
  }
}

export async function withLedgerProblems<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    throw ledgerProblem(e);
  }
}
