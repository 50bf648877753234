// Response shapes of the evidence ledger's routes (tag `ledger` in GET /api/v1/openapi.json), built from the
// core's own input schemas so a proposal or an evaluation reads back exactly as it was sent.
import { z } from "zod";
import { evaluationSchema, proposalSchema, scopeSchema } from "../../ledger/schemas";
import { PROCEDURE_STATES } from "../../ledger/types";

const state = z.enum(PROCEDURE_STATES);
const time = z.iso.datetime();
const count = z.number().int();

export const procedureRecordResponse = z.object({
  scope: scopeSchema,
  proposal: proposalSchema,
  state,
  qualification_count: count,
  mean_improvement: z.number(),
  mean_candidate_utility: z.number(),
  budget_violations: count,
  lower_improvement_bound: z.number().nullable().describe("null until enough qualification cases"),
  monitoring_count: count,
  failure_streak: count,
  decisions: z.array(z.object({ from: state, to: state, reason: z.string(), triggering_case: z.string(), recorded_at: time })),
  created_at: time,
});

export const receiptResponse = z.object({
  evaluation: evaluationSchema,
  state_after: state.describe("the procedure's state right after this case"),
  recorded_at: time,
});

export const evaluationResultResponse = z.object({ receipt: receiptResponse, duplicate: z.boolean() });

export const selectResponse = z.object({ procedure: procedureRecordResponse.nullable().describe("null: use the baseline") });
