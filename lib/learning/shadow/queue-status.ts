// The agent page's view of its shadow evaluation queue (depth, dropped, dead jobs,
// evaluations per minute) and the admin's retry of a dead job, audited in its transaction.
import { z } from "zod";
import type { Db } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { retryDeadJob } from "../../jobs/queue";
import { pathId } from "../../ids";
import { SHADOW_EVALUATION_JOB } from "./enqueue";
import { NotFound } from "../../errors";

const DEAD_LIMIT = 20;
/** The rate is averaged over this many minutes. */
export const RATE_MINUTES = 10;

export type DeadJob = { id: string; runId: string | null; attempts: number; lastError: string | null; finishedAt: Date | null };

export type ShadowQueueStatus = {
  pending: number;
  running: number;
  dropped: number;
  deadCount: number;
  dead: DeadJob[];
  evaluationsPerMinute: number;
};

export async function shadowQueueStatus(db: Db, agentId: string): Promise<ShadowQueueStatus | null> {
  const [[counts], dead] = await Promise.all([
    db.$queryRaw<{ dropped: number; pending: number; running: number; dead: number; recent: number }[]>`
      SELECT a.shadow_dropped AS dropped,
        (SELECT count(*)::int FROM jobs WHERE kind = ${SHADOW_EVALUATION_JOB} AND agent_id = a.id AND status = 'PENDING') AS pending,
        (SELECT count(*)::int FROM jobs WHERE kind = ${SHADOW_EVALUATION_JOB} AND agent_id = a.id AND status = 'RUNNING') AS running,
        (SELECT count(*)::int FROM jobs WHERE kind = ${SHADOW_EVALUATION_JOB} AND agent_id = a.id AND status = 'DEAD') AS dead,
        (SELECT count(*)::int FROM shadow_evaluations WHERE agent_id = a.id AND evaluated_at > now() - make_interval(mins => ${RATE_MINUTES}::int)) AS recent
      FROM agents a WHERE a.id = ${agentId}`,
    db.job.findMany({
      where: { kind: SHADOW_EVALUATION_JOB, agentId, status: "DEAD" },
      orderBy: [{ finishedAt: "desc" }, { id: "desc" }],
      take: DEAD_LIMIT,
      select: { id: true, payload: true, attempts: true, lastError: true, finishedAt: true },
    }),
  ]);
  if (!counts) return null;
  return {
    pending: counts.pending,
    running: counts.running,
    dropped: counts.dropped,
    deadCount: counts.dead,
    dead: dead.map((j) => {
      const runId = (j.payload as { run_id?: unknown } | null)?.run_id;
      return { id: String(j.id), runId: typeof runId === "string" ? runId : null, attempts: j.attempts, lastError: j.lastError, finishedAt: j.finishedAt };
    }),
    evaluationsPerMinute: counts.recent / RATE_MINUTES,
  };
}

export const deadJobParams = z.object({ agent_id: pathId, job_id: z.string().regex(/^\d{1,18}$/) });

export async function retryShadowJob(db: Db, agentId: string, jobId: string, audit: AuditContext) {
  return db.$transaction(async (tx) => {
    const ok = await retryDeadJob(tx, BigInt(jobId), { kind: SHADOW_EVALUATION_JOB, agentId });
    if (!ok) throw new NotFound(`Dead shadow evaluation job '${jobId}' of agent '${agentId}'`);
    await recordAudit(tx, audit, { type: "shadow_job.retried", target: { type: "job", id: jobId }, data: { agent_id: agentId, kind: SHADOW_EVALUATION_JOB } });
    return { job_id: jobId, status: "pending" as const };
  });
}
