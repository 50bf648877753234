// A durable job table claimed with FOR UPDATE SKIP LOCKED: any number of worker processes,
// no job done twice, nothing lost on a crash (a claimed job whose lease expires is retried).
// A claim's attempt number is its token: completing, failing, releasing and renewing match it,
// so a worker whose lease expired and was re-claimed by another changes nothing.
import type { Db, Tx } from "../db/prisma";
import { inBatches } from "./upkeep";

export type ClaimedJob = { id: bigint; kind: string; agentId: string | null; payload: unknown; attempts: number };
/** What identifies one claim of a job: its id and the attempt number the claim gave it. */
export type JobClaim = Pick<ClaimedJob, "id" | "attempts">;

const held = (claims: JobClaim[]) => ({
  ids: claims.map((c) => c.id),
  attempts: claims.map((c) => c.attempts),
});

export const LEASE_SECONDS = 300;

export async function enqueueJob(tx: Tx | Db, job: { kind: string; agentId?: string | null; payload: unknown; runAfter?: Date }) {
  await tx.job.create({
    data: { kind: job.kind, agentId: job.agentId ?? null, payload: job.payload as object, runAfter: job.runAfter ?? new Date() },
  });
}

export async function enqueueJobs(tx: Tx | Db, jobs: { kind: string; payload: unknown; runAfter: Date }[]) {
  if (jobs.length) await tx.job.createMany({ data: jobs.map((j) => ({ kind: j.kind, payload: j.payload as object, runAfter: j.runAfter })) });
}

/** Claims up to `limit` due jobs of the given kinds (and expired leases of crashed workers). */
export async function claimJobs(database: Db, kinds: string[], limit: number, leaseSeconds = LEASE_SECONDS): Promise<ClaimedJob[]> {
  const rows = await database.$queryRaw<
    { id: bigint; kind: string; agent_id: string | null; payload: unknown; attempts: number }[]
  >`
    UPDATE jobs SET status = 'RUNNING', locked_at = now(), attempts = attempts + 1
    WHERE id IN (
      SELECT id FROM jobs
      WHERE kind = ANY(${kinds}::text[])
        AND ((status = 'PENDING' AND run_after <= now())
          OR (status = 'RUNNING' AND locked_at < now() - make_interval(secs => ${leaseSeconds}::int)))
      ORDER BY run_after, id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id, kind, agent_id, payload, attempts`;
  // RETURNING follows no order: sort so a batch runs first-in, first-out.
  return rows
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((r) => ({ id: r.id, kind: r.kind, agentId: r.agent_id, payload: r.payload, attempts: r.attempts }));
}

/**
 * Marks claimed jobs done while their claims hold (RUNNING with the claim's attempt number);
 * returns how many were. A job deleted meanwhile (its agent's deletion removes the agent's jobs)
 * or re-claimed after an expired lease is left as it is.
 */
export async function completeJobs(tx: Tx | Db, claims: JobClaim[]): Promise<number> {
  if (claims.length === 0) return 0;
  const { ids, attempts } = held(claims);
  return tx.$executeRaw`
    UPDATE jobs SET status = 'DONE', finished_at = now(), locked_at = NULL
    FROM unnest(${ids}::bigint[], ${attempts}::int[]) AS c(id, attempts)
    WHERE jobs.id = c.id AND jobs.attempts = c.attempts AND jobs.status = 'RUNNING'`;
}

export async function completeJob(tx: Tx | Db, claim: JobClaim): Promise<boolean> {
  return (await completeJobs(tx, [claim])) === 1;
}

/** Retry with exponential backoff; after maxAttempts the job is kept as DEAD for an admin to see. False when the claim no longer holds. */
export async function failJob(database: Db, job: JobClaim, error: string, maxAttempts: number): Promise<boolean> {
  const dead = job.attempts >= maxAttempts;
  const backoffMs = Math.min(60_000 * 30, 1000 * 2 ** job.attempts);
  const r = await database.job.updateMany({
    where: { id: job.id, attempts: job.attempts, status: "RUNNING" },
    data: {
      status: dead ? "DEAD" : "PENDING",
      lastError: error.slice(0, 500),
      lockedAt: null,
      runAfter: new Date(Date.now() + backoffMs),
      finishedAt: dead ? new Date() : null,
    },
  });
  return r.count === 1;
}

/** Hands claimed jobs that were never started back to the queue (a worker shutting down). */
export async function releaseJobs(database: Db, claims: JobClaim[]) {
  if (claims.length === 0) return;
  const { ids, attempts } = held(claims);
  await database.$executeRaw`
    UPDATE jobs SET status = 'PENDING', locked_at = NULL, attempts = GREATEST(jobs.attempts - 1, 0)
    FROM unnest(${ids}::bigint[], ${attempts}::int[]) AS c(id, attempts)
    WHERE jobs.id = c.id AND jobs.attempts = c.attempts AND jobs.status = 'RUNNING'`;
}

/** Renews the leases of claims still held (the worker's heartbeat while it works through them). */
export async function renewLeases(database: Db, claims: JobClaim[]): Promise<number> {
  if (claims.length === 0) return 0;
  const { ids, attempts } = held(claims);
  return database.$executeRaw`
    UPDATE jobs SET locked_at = now()
    FROM unnest(${ids}::bigint[], ${attempts}::int[]) AS c(id, attempts)
    WHERE jobs.id = c.id AND jobs.attempts = c.attempts AND jobs.status = 'RUNNING'`;
}

/**
 * DEAD jobs back to PENDING, due now, with fresh attempts (an admin's retry): the next claim is
 * attempt 1 again. A dead job has no live claim (failJob ended the last one), so no holder's
 * token can match it. Returns how many were dead.
 */
export async function retryDeadJobs(tx: Tx | Db, ids: bigint[]): Promise<number> {
  const r = await tx.job.updateMany({
    where: { id: { in: ids }, status: "DEAD" },
    data: { status: "PENDING", attempts: 0, runAfter: new Date(), lockedAt: null, finishedAt: null },
  });
  return r.count;
}

/** Deletes DEAD jobs for good (an admin's dismissal); returns how many were dead. */
export async function deleteDeadJobs(tx: Tx | Db, ids: bigint[]): Promise<number> {
  const r = await tx.job.deleteMany({ where: { id: { in: ids }, status: "DEAD" } });
  return r.count;
}

/**
 * Deletes finished (DONE) jobs that finished before `before`, in batches so no statement holds
 * many row locks; DEAD jobs stay for an admin to retry or dismiss. Returns how many were deleted.
 */
export function pruneFinishedJobs(database: Db, before: Date, batch = 5000): Promise<number> {
  return inBatches(
    () => database.$executeRaw`
      DELETE FROM jobs WHERE id IN (
        SELECT id FROM jobs WHERE status = 'DONE' AND finished_at < ${before} LIMIT ${batch}::int)`,
    batch,
  );
}
