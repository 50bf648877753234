// A durable job table claimed with FOR UPDATE SKIP LOCKED: any number of worker processes,
// no job done twice, nothing lost on a crash (a claimed job whose lease expires is retried).
import type { Db, Tx } from "../db/prisma";

export type ClaimedJob = { id: bigint; kind: string; agentId: string | null; payload: unknown; attempts: number };

export const LEASE_SECONDS = 300;

export async function enqueueJob(tx: Tx | Db, job: { kind: string; agentId?: string | null; payload: unknown; runAfter?: Date }) {
  await tx.job.create({
    data: { kind: job.kind, agentId: job.agentId ?? null, payload: job.payload as object, runAfter: job.runAfter ?? new Date() },
  });
}

/** Claims up to `limit` due jobs of the given kinds (and expired leases of crashed workers). */
export async function claimJobs(database: Db, kinds: string[], limit: number): Promise<ClaimedJob[]> {
  const rows = await database.$queryRaw<
    { id: bigint; kind: string; agent_id: string | null; payload: unknown; attempts: number }[]
  >`
    UPDATE jobs SET status = 'RUNNING', locked_at = now(), attempts = attempts + 1
    WHERE id IN (
      SELECT id FROM jobs
      WHERE kind = ANY(${kinds}::text[])
        AND ((status = 'PENDING' AND run_after <= now())
          OR (status = 'RUNNING' AND locked_at < now() - make_interval(secs => ${LEASE_SECONDS})))
      ORDER BY run_after, id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id, kind, agent_id, payload, attempts`;
  return rows.map((r) => ({ id: r.id, kind: r.kind, agentId: r.agent_id, payload: r.payload, attempts: r.attempts }));
}

export async function completeJob(tx: Tx | Db, id: bigint) {
  await tx.job.update({ where: { id }, data: { status: "DONE", finishedAt: new Date(), lockedAt: null } });
}

/** Retry with exponential backoff; after maxAttempts the job is kept as DEAD for an admin to see. */
export async function failJob(database: Db, job: ClaimedJob, error: string, maxAttempts: number) {
  const dead = job.attempts >= maxAttempts;
  const backoffMs = Math.min(60_000 * 30, 1000 * 2 ** job.attempts);
  await database.job.update({
    where: { id: job.id },
    data: {
      status: dead ? "DEAD" : "PENDING",
      lastError: error.slice(0, 500),
      lockedAt: null,
      runAfter: new Date(Date.now() + backoffMs),
      finishedAt: dead ? new Date() : null,
    },
  });
}
