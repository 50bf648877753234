// The ledger's HTTP request shapes (tag `ledger` in GET /api/v1/openapi.json), built from the core's schemas.
// Its errors are DomainErrors (lib/ledger/errors.ts), answered like every other domain's.
import { z } from "zod";
import { evaluationSchema, ledgerIdSchema, proposalSchema, scopeSchema, selectionSchema } from "../../ledger/schemas";

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
