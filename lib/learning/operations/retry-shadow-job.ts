// Retry a dead shadow evaluation job of an agent: it goes back to the queue with its
// attempts reset. The change and its audit row commit together.
import { z } from "zod";
import type { Db } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { NotFound } from "../../errors";
import { pathId } from "../../path-id";
import { retryDeadJob } from "../../jobs/queue";
import { SHADOW_EVALUATION_JOB } from "../shadow/enqueue";
import { assertAgentWritable } from "../agents/writable";

export const deadJobParams = z.object({ agent_id: pathId, job_id: z.string().regex(/^\d{1,18}$/) });

/** jobId: the job's decimal id (deadJobParams.job_id). */
export type RetryShadowJobInput = { agentId: string; jobId: string };

export async function retryShadowJob(db: Db, input: RetryShadowJobInput, by: AuditContext) {
  const { agentId, jobId } = input;
  return db.$transaction(async (tx) => {
    await assertAgentWritable(tx, agentId);
    const ok = await retryDeadJob(tx, BigInt(jobId), { kind: SHADOW_EVALUATION_JOB, agentId });
    if (!ok) throw new NotFound(`Dead shadow evaluation job '${jobId}' of agent '${agentId}'`);
    await recordAudit(tx, by, { type: "shadow_job.retried", target: { type: "job", id: jobId }, data: { agent_id: agentId, kind: SHADOW_EVALUATION_JOB } });
    return { job_id: jobId, status: "pending" as const };
  });
}
