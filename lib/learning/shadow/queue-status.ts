// The agent page's view of its shadow evaluation queue (depth, dropped, dead jobs,
// evaluations per minute). Retrying or dismissing a dead job is an operation (lib/jobs/operations).
import type { Db } from "../../db/prisma";
import { SHADOW_EVALUATION_JOB } from "./enqueue";

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
