// The background worker loop: polls the job table and dispatches to handlers registered by
// the domains (promotion cadence, shadow evaluation, persona daily review).
import type { Db } from "../db/prisma";
import { claimJobs, completeJob, failJob } from "./queue";

export type JobHandler = (database: Db, payload: unknown, agentId: string | null) => Promise<void>;

const handlers = new Map<string, JobHandler>();

export function registerJobHandler(kind: string, handler: JobHandler) {
  handlers.set(kind, handler);
}

export type WorkerRuntime = { stop(): Promise<void>; drain(timeoutMs: number): Promise<boolean> };

export function startWorkerRuntime(database: Db, opts: { pollMs?: number; batch?: number; maxAttempts?: number } = {}): WorkerRuntime {
  const pollMs = opts.pollMs ?? 500;
  const batch = opts.batch ?? 10;
  const maxAttempts = opts.maxAttempts ?? 5;
  let stopped = false;
  let inFlight: Promise<number> = Promise.resolve(0);
  let timer: NodeJS.Timeout | undefined;

  async function tick(): Promise<number> {
    const kinds = [...handlers.keys()];
    if (kinds.length === 0) return 0;
    const jobs = await claimJobs(database, kinds, batch);
    for (const job of jobs) {
      try {
        await handlers.get(job.kind)!(database, job.payload, job.agentId);
        await completeJob(database, job.id);
      } catch (e) {
        // Ids and error kinds only: payload text may be private.
        console.error(`job ${job.id} (${job.kind}) failed: ${(e as Error)?.name ?? "error"}`);
        await failJob(database, job, `${(e as Error)?.name ?? "error"}: ${(e as Error)?.message ?? ""}`, maxAttempts);
      }
    }
    return jobs.length;
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

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await inFlight; // finish in-flight jobs
    },
    async drain(timeoutMs: number) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const pending = await database.job.count({ where: { kind: { in: [...handlers.keys()] }, status: { in: ["PENDING", "RUNNING"] } } });
        if (pending === 0) return true;
        await new Promise((r) => setTimeout(r, 50));
      }
      return false;
    },
  };
}
