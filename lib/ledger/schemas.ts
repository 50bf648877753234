// One validation of every ledger input, used by the core on each call and by
// the routes for their request shapes. All failures are a ValidationError.
import { z } from "zod";
import { LedgerError } from "./errors";
import { ledgerTextProblem } from "./text";

export const ID_BYTES = 512;
export const REF_BYTES = 2048;
export const INSTRUCTION_BYTES = 64 * 1024;
export const MAX_SOURCE_REFS = 128;

export const ledgerText = (limitBytes: number) =>
  z.string().superRefine((s, ctx) => {
    const problem = ledgerTextProblem(s, limitBytes);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

const id = ledgerText(ID_BYTES);

/** A finite double in [0, 1]; -0 passes, as Rust's `-0.0 >= 0.0` does. */
const unitInterval = z
  .number()
  .refine(Number.isFinite, "must be finite")
  .refine((v) => v >= 0 && v <= 1, "must be in [0, 1]");

/** The reference's u64 counters and limits, restricted to what a JSON number carries exactly. */
const safeCount = z
  .number()
  .refine(Number.isFinite, "must be finite")
  .refine((v) => Number.isInteger(v) && v >= 0 && v <= Number.MAX_SAFE_INTEGER, "must be an integer in [0, 2^53-1]");

const integerIn = (min: number, max: number) =>
  z.number().refine((v) => Number.isInteger(v) && v >= min && v <= max, `must be an integer in [${min}, ${max}]`);

export const scopeSchema = z.object({ tenant: id, agent: id, environment: id });

/** Omitted numbers take the reference implementation's defaults; evaluator and contract have none. */
export const policySchema = z.object({
  qualification_trials: integerIn(2, 1_000_000).default(128),
  confidence_delta: z
    .number()
    .refine(Number.isFinite, "must be finite")
    .refine((v) => v > 0 && v < 0.5, "must be in (0, 0.5)")
    .default(0.01),
  min_improvement: unitInterval.default(0.05),
  min_candidate_utility: unitInterval.default(0.7),
  max_cost_units: safeCount.default(10_000),
  max_latency_ms: safeCount.default(60_000),
  max_failure_streak: integerIn(1, 1_000_000).default(3),
  evaluator_id: id,
  evaluation_contract: id,
});

export const proposalSchema = z.object({
  id,
  task: id,
  baseline_revision: id,
  instructions: ledgerText(INSTRUCTION_BYTES),
  // Duplicates in the list are allowed, as in the reference.
  source_refs: z.array(ledgerText(REF_BYTES)).min(1).max(MAX_SOURCE_REFS),
  policy: policySchema,
});

export const EVALUATION_PHASES = ["qualification", "monitoring"] as const;

export const evaluationSchema = z.object({
  case_id: id,
  phase: z.enum(EVALUATION_PHASES),
  evaluator_id: id,
  evaluation_contract: id,
  evidence_ref: ledgerText(REF_BYTES),
  baseline_utility: unitInterval,
  candidate_utility: unitInterval,
  candidate_cost_units: safeCount,
  candidate_latency_ms: safeCount,
});

export const selectionSchema = z.object({
  task: id,
  baseline_revision: id,
  evaluation_contract: id,
  max_instruction_bytes: safeCount,
});

export const ledgerIdSchema = id;

export type ScopeInput = z.input<typeof scopeSchema>;
export type ProposalInput = z.input<typeof proposalSchema>;
export type EvaluationInput = z.input<typeof evaluationSchema>;
export type SelectionInput = z.input<typeof selectionSchema>;

/** Parses with a ledger schema; failures become ValidationError with one entry per field. */
export function parseLedger<S extends z.ZodType>(schema: S, value: unknown, what: string, at = ""): z.output<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  throw new LedgerError(
    "ValidationError",
    `The ${what} is invalid.`,
    r.error.issues.map((i) => ({ path: [at, ...i.path.map(String)].join("/") || "/", message: i.message })),
  );
}
