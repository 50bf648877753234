// Retry dead jobs of any kind (an admin's "Retry"): each goes back to the queue, due now, with
// fresh attempts; one audit row per job (with the admin's note, if any), committed with the change.
import type { Db } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { NotFound } from "../../errors";
import { lockDeadJobs } from "../dead";
import { retryDeadJobs as requeue } from "../queue";
import { DEAD_JOB_BATCH, type DeadJobSelection } from "../schemas";

export type RetryDeadJobsInput = { select: DeadJobSelection; reason?: string };

export async function retryDeadJobs(db: Db, input: RetryDeadJobsInput, by: AuditContext) {
  return db.$transaction(async (tx) => {
    const jobs = await lockDeadJobs(tx, input.select, DEAD_JOB_BATCH);
    if (jobs.length === 0) throw new NotFound("The dead job");
    await requeue(tx, jobs.map((j) => j.id));
    for (const j of jobs) {
      await recordAudit(tx, by, {
        type: "job.retried",
        target: { type: "job", id: j.job_id },
        data: { kind: j.kind, agent_id: j.agent_id, attempts: j.attempts, error_class: j.error_class, ...(input.reason ? { reason: input.reason } : {}) },
      });
    }
    return { jobs: jobs.map(({ id: _, ...j }) => ({ ...j, status: "pending" as const })) };
  });
}
