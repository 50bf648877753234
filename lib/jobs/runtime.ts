// The background worker loop: polls the job table and dispatches to handlers registered by
// the domains (promotion cadence, shadow evaluation, persona daily review).
import type { Db } from "../db/prisma";
import { claimJobs, completeJob, completeJobs, failJob, LEASE_SECONDS, pruneFinishedJobs, releaseJobs, renewLeases, type ClaimedJob } from "./queue";

export type JobHandler = (database: Db, payload: unknown, agentId: string | null) => Promise<void>;

const handlers = new Map<string, JobHandler>();

export function registerJobHandler(kind: string, handler: JobHandler) {
  handlers.set(kind, handler);
}

/**
 * Handles many jobs of one kind at once (OTLP trace assembly: one ingestion per agent for many
 * traces). Returns the jobs that failed, with why; the others are done. Throwing fails them all.
 */
export type BatchJobHandler = (database: Db, jobs: ClaimedJob[]) => Promise<Map<bigint, Error>>;

const batchHandlers = new Map<string, { size: number; handler: BatchJobHandler }>();

/** When the worker claims a job of `kind`, it claims up to `size` due ones of that kind (SKIP LOCKED) and hands them over together. */
export function registerBatchJobHandler(kind: string, size: number, handler: BatchJobHandler) {
  batchHandlers.set(kind, { size, handler });
}

const handledKinds = () => [...handlers.keys(), ...batchHandlers.keys()];

/** Upkeep a domain wants done by every worker at start and hourly (run retention, expired OTLP spans); must be idempotent. */
export type PeriodicTask = (database: Db) => Promise<unknown>;
const periodicTasks = new Map<string, PeriodicTask>();

export function registerPeriodicTask(name: string, task: PeriodicTask) {
  periodicTasks.set(name, task);
}

export type WorkerRuntime = { stop(): Promise<void>; drain(timeoutMs: number): Promise<boolean> };

export type WorkerOptions = {
  pollMs?: number;
  batch?: number;
  maxAttempts?: number;
  leaseSeconds?: number;
  /** Finished jobs are deleted this long after they finished (checked at start, then hourly). */
  retentionHours?: number;
};

const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** Worker settings from the environment (PROCTOR_JOB_MAX_ATTEMPTS, _LEASE_SECONDS, _RETENTION_HOURS). */
export function workerOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): WorkerOptions {
  const int = (v: string | undefined) => (v && /^[1-9]\d*$/.test(v) ? Number(v) : undefined);
  return {
    maxAttempts: int(env.PROCTOR_JOB_MAX_ATTEMPTS),
    leaseSeconds: int(env.PROCTOR_JOB_LEASE_SECONDS),
    retentionHours: int(env.PROCTOR_JOB_RETENTION_HOURS),
  };
}

export function startWorkerRuntime(database: Db, opts: WorkerOptions = {}): WorkerRuntime {
  const pollMs = opts.pollMs ?? 500;
  const batch = opts.batch ?? 10;
  const maxAttempts = opts.maxAttempts ?? 5;
  const leaseSeconds = opts.leaseSeconds ?? LEASE_SECONDS;
  const retentionMs = (opts.retentionHours ?? 24) * 60 * 60 * 1000;
  let stopped = false;
  let inFlight: Promise<number> = Promise.resolve(0);
  let timer: NodeJS.Timeout | undefined;

  // Every claim in hand, started or waiting its turn in the batch, keeps its lease while the
  // worker lives: a heartbeat renews them three times per lease, so only a dead worker's expire.
  const held = new Map<bigint, ClaimedJob>();
  const hold = (jobs: ClaimedJob[]) => jobs.forEach((j) => held.set(j.id, j));
  const letGo = (jobs: ClaimedJob[]) => jobs.forEach((j) => held.delete(j.id));
  const heartbeat = setInterval(() => {
    renewLeases(database, [...held.values()]).catch((e) => console.error(`job lease renewal failed: ${(e as Error)?.name ?? "error"}`));
  }, (leaseSeconds * 1000) / 3);
  heartbeat.unref();

  const fail = async (job: ClaimedJob, e: unknown) => {
    // Ids and error kinds only: payload text may be private.
    console.error(`job ${job.id} (${job.kind}) failed: ${(e as Error)?.name ?? "error"}`);
    const failed = await failJob(database, job, `${(e as Error)?.name ?? "error"}: ${(e as Error)?.message ?? ""}`, maxAttempts);
    if (!failed) console.error(`job ${job.id} (${job.kind}): claim lost before it failed; left to its new holder`);
  };

  async function runBatch(kind: string, claimed: ClaimedJob[]) {
    const { size, handler } = batchHandlers.get(kind)!;
    const more = claimed.length < size ? await claimJobs(database, [kind], size - claimed.length, leaseSeconds) : [];
    hold(more);
    const jobs = [...claimed, ...more];
    try {
      let failed: Map<bigint, Error>;
      try {
        failed = await handler(database, jobs);
      } catch (e) {
        failed = new Map(jobs.map((j) => [j.id, e as Error]));
      }
      await completeJobs(database, jobs.filter((j) => !failed.has(j.id)));
      for (const job of jobs) if (failed.has(job.id)) await fail(job, failed.get(job.id));
      return more.length;
    } finally {
      letGo(jobs);
    }
  }

  async function tick(): Promise<number> {
    const kinds = handledKinds();
    if (kinds.length === 0) return 0;
    const jobs = await claimJobs(database, kinds, batch, leaseSeconds);
    hold(jobs);
    try {
      return await work(jobs);
    } finally {
      letGo(jobs);
    }
  }

  async function work(jobs: ClaimedJob[]): Promise<number> {
    let extra = 0;
    for (const [i, job] of jobs.entries()) {
      // Shutting down: the job in hand was finished; the rest go back to the queue at once
      // (not after a lease) for another worker or the next start.
      if (stopped) {
        await releaseJobs(database, jobs.slice(i));
        return i + extra;
      }
      // A batch kind: its first job takes this claim's others of the kind, and more from the queue.
      if (batchHandlers.has(job.kind)) {
        if (jobs.findIndex((j) => j.kind === job.kind) === i) extra += await runBatch(job.kind, jobs.filter((j) => j.kind === job.kind));
        continue;
      }
      try {
        await handlers.get(job.kind)!(database, job.payload, job.agentId);
        if (!(await completeJob(database, job))) console.error(`job ${job.id} (${job.kind}): claim lost before it finished; left to its new holder`);
      } catch (e) {
        await fail(job, e);
      }
      letGo([job]);
    }
    return jobs.length + extra;
  }

  function loop() {
    if (stopped) return;
    inFlight = tick().catch((e) => {
      console.error(`worker tick failed: ${(e as Error)?.name ?? "error"}`);
      return 0;
    });
    void inFlight.then((n) => {
      if (!stopped) timer = setTimeout(loop, n > 0 ? 0 : pollMs);
    });
  }
  loop();

  // The job table keeps what is queued, running or dead; finished jobs only for a while. The
  // domains' periodic upkeep runs after it, one task at a time.
  let pruning: Promise<unknown> = Promise.resolve();
  const prune = () => {
    pruning = (async () => {
      await pruneFinishedJobs(database, new Date(Date.now() - retentionMs)).catch((e) =>
        console.error(`job pruning failed: ${(e as Error)?.name ?? "error"}`),
      );
      for (const [name, task] of periodicTasks) {
        if (stopped) return;
        await task(database).catch((e) => console.error(`${name} failed: ${(e as Error)?.name ?? "error"}`));
      }
    })();
  };
  prune();
  const pruneTimer = setInterval(prune, PRUNE_EVERY_MS);
  pruneTimer.unref();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      clearInterval(pruneTimer);
      await pruning;
      await inFlight; // finish the job in hand; unstarted claimed jobs are released
      clearInterval(heartbeat);
    },
    async drain(timeoutMs: number) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const pending = await database.job.count({ where: { kind: { in: handledKinds() }, status: { in: ["PENDING", "RUNNING"] } } });
        if (pending === 0) return true;
        await new Promise((r) => setTimeout(r, 50));
      }
      return false;
    },
  };
}
