// Retry dead jobs of any kind (an admin's "Retry"): each goes back to the queue, due now, with
// fresh attempts; one audit row per job (with the admin's note, if any), committed with the change.
import type { Db } from "../../db/prisma";
import type { AuditContext } from "../../audit/record";
import { decideDeadJobs } from "../dead";
import { retryDeadJobs as requeue } from "../queue";
import type { DeadJobSelection } from "../schemas";

export type RetryDeadJobsInput = { select: DeadJobSelection; reason?: string };

export function retryDeadJobs(db: Db, input: RetryDeadJobsInput, by: AuditContext) {
  return decideDeadJobs(db, input.select, by, { event: "job.retried", apply: requeue, reason: input.reason, status: "pending" as const });
}
