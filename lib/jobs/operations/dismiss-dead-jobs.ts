// Dismiss dead jobs of any kind (an admin gives up on them, with a reason): they are deleted for
// good, so the inbox stops counting them; one audit row per job keeps what they were (kind,
// agent, attempts, error class: never the payload).
import type { Db } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { NotFound } from "../../errors";
import { lockDeadJobs } from "../dead";
import { deleteDeadJobs } from "../queue";
import { DEAD_JOB_BATCH, type DeadJobSelection } from "../schemas";

export type DismissDeadJobsInput = { select: DeadJobSelection; reason: string };

export async function dismissDeadJobs(db: Db, input: DismissDeadJobsInput, by: AuditContext) {
  return db.$transaction(async (tx) => {
    const jobs = await lockDeadJobs(tx, input.select, DEAD_JOB_BATCH);
    if (jobs.length === 0) throw new NotFound("The dead job");
    await deleteDeadJobs(tx, jobs.map((j) => j.id));
    for (const j of jobs) {
      await recordAudit(tx, by, {
        type: "job.dismissed",
        target: { type: "job", id: j.job_id },
        data: { kind: j.kind, agent_id: j.agent_id, attempts: j.attempts, error_class: j.error_class, reason: input.reason },
      });
    }
    return { jobs: jobs.map(({ id: _, ...j }) => ({ ...j, status: "dismissed" as const })) };
  });
}
