// Dead jobs as callers see them (the agent API, the console's inbox actions): kind, agent,
// attempts and the class of the last error. Never the payload or the error's message: both may
// hold private text (a trace's prompts, a run's query).
import { z } from "zod";
import { pathId } from "../path-id";

/** At most this many dead jobs are retried or dismissed by one call, and listed by one request. */
export const DEAD_JOB_BATCH = 200;

export const jobId = z.string().regex(/^[1-9]\d{0,17}$/, "a job id is a positive decimal number");
const kind = z.string().min(1).max(64);
/** Why a dead job is dismissed: required, since dismissing deletes it for good. */
export const dismissReason = z.string().trim().min(1).max(2000);

/** Which dead jobs: one by id, or every dead job (up to DEAD_JOB_BATCH) of a kind and agent (null: jobs of no agent). */
export const deadJobSelection = z.union([z.strictObject({ job_id: jobId }), z.strictObject({ kind, agent_id: pathId.nullable() })]);
export type DeadJobSelection = z.infer<typeof deadJobSelection>;

// The agent API's wire shapes (lib/api/v1/contract.ts).
export const jobParams = z.object({ job_id: jobId });
export const deadJobsQuery = z.object({
  status: z.literal("dead"),
  kind: kind.optional(),
  agent_id: pathId.optional(),
  limit: z.coerce.number().int().min(1).max(DEAD_JOB_BATCH).default(50),
});
export const dismissJobBody = z.strictObject({ reason: dismissReason });
/** A retry's optional note, recorded in its audit row. */
export const retryJobBody = z.strictObject({ reason: z.string().trim().max(2000).optional() });

export const deadJobView = z.strictObject({
  job_id: jobId,
  kind,
  agent_id: z.string().nullable(),
  attempts: z.number().int(),
  /** The last error's class (TypeError, ShadowEvaluationError…), never its message. */
  error_class: z.string().nullable(),
  created_at: z.iso.datetime({ offset: true }),
  failed_at: z.iso.datetime({ offset: true }).nullable(),
});
export type DeadJobView = z.infer<typeof deadJobView>;

export const deadJobListResponse = z.strictObject({ jobs: z.array(deadJobView) });
export const jobRetriedResponse = z.strictObject({ jobs: z.array(deadJobView.extend({ status: z.literal("pending") })) });
export const jobDismissedResponse = z.strictObject({ jobs: z.array(deadJobView.extend({ status: z.literal("dismissed") })) });

/** The class of a stored error (`failJob` keeps `<name>: <message>`): the part before the first colon, if it looks like a name. */
export function errorClass(lastError: string | null): string | null {
  const name = lastError?.split(":", 1)[0].trim();
  return name && /^[A-Za-z_$][\w$.]{0,79}$/.test(name) ? name : null;
}
