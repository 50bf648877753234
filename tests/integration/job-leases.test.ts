// A claim's lease and token: a worker whose lease expired and whose job another worker claimed
// changes nothing when it finishes late (its complete, fail and release are no-ops), and a
// worker busy with a slow job renews its lease, so the job runs once and ends in one state.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, type Db } from "@/lib/db/prisma";
import { claimJobs, completeJob, enqueueJob, failJob, releaseJobs } from "@/lib/jobs/queue";
import { registerJobHandler, startWorkerRuntime } from "@/lib/jobs/runtime";
import { testDatabase, waitFor } from "../helpers/server";
import { openDomainDatabase } from "../helpers/domain-database";

let close: () => Promise<void>;
let db: Db;
beforeAll(async () => {
  const database = await openDomainDatabase();
  close = database.close;
  db = createPrismaClient(database.url, 4);
});
afterAll(async () => {
  await db?.$disconnect();
  await close?.();
});

const jobRow = async (kind: string) => {
  const [row] = await db.$queryRaw<{ id: bigint; status: string; attempts: number; locked_at: Date | null }[]>`
    SELECT id, status::text, attempts, locked_at FROM jobs WHERE kind = ${kind}`;
  return row;
};
/** What a lease older than the worker's means: the worker holding the claim stopped answering. */
const expireLease = (kind: string) => db.$executeRaw`UPDATE jobs SET locked_at = now() - interval '1 hour' WHERE kind = ${kind}`;

describe(`job leases (${testDatabase()})`, () => {
  it("a stale worker's fail, complete and release change nothing once another worker re-claimed the job", async () => {
    const kind = "lease-probe.stale";
    await enqueueJob(db, { kind, payload: {} });
    const [first] = await claimJobs(db, [kind], 10, 300);
    await expireLease(kind);
    const [second] = await claimJobs(db, [kind], 10, 300);
    expect(second.id).toBe(first.id);
    expect(second.attempts).toBe(2);

    const lateFail = await failJob(db, first, "late failure", 5);
    expect(await jobRow(kind)).toMatchObject({ status: "RUNNING", attempts: 2 });
    expect(lateFail).toBe(false);
    await releaseJobs(db, [first]);
    expect(await jobRow(kind)).toMatchObject({ status: "RUNNING", attempts: 2 });
    expect(await completeJob(db, first)).toBe(false);
    expect(await jobRow(kind)).toMatchObject({ status: "RUNNING", attempts: 2 });

    expect(await completeJob(db, second)).toBe(true);
    expect(await jobRow(kind)).toMatchObject({ status: "DONE", attempts: 2 });
    // Done is final: the stale claim cannot bring it back.
    expect(await failJob(db, first, "late failure", 5)).toBe(false);
    expect(await jobRow(kind)).toMatchObject({ status: "DONE", attempts: 2 });
  });

  it("a slow job keeps its lease: a second worker does not run it again, it ends done once", async () => {
    const kind = "lease-probe.slow";
    const marker = "lease-probe.marker";
    let runs = 0;
    let finish!: () => void;
    const finished = new Promise<void>((r) => (finish = r));
    registerJobHandler(kind, async () => {
      runs++;
      await finished;
    });
    const markers: string[] = [];
    registerJobHandler(marker, async (_db, payload) => {
      markers.push((payload as { name: string }).name);
    });

    await enqueueJob(db, { kind, payload: {} });
    const a = startWorkerRuntime(db, { pollMs: 50, leaseSeconds: 3 });
    try {
      await waitFor(async () => runs === 1, 30_000);
      const claimedAt = (await jobRow(kind)).locked_at!;
      // Longer than the 3 s lease: the heartbeat moved it twice meanwhile.
      await waitFor(async () => (await jobRow(kind)).locked_at!.getTime() >= claimedAt.getTime() + 2000, 30_000, () => "the lease was never renewed");

      // A second worker polls: it claims the due marker, and the slow job (leased) with it only if its lease had lapsed.
      const b = startWorkerRuntime(db, { pollMs: 50, leaseSeconds: 3 });
      try {
        await enqueueJob(db, { kind: marker, payload: { name: "after-renewal" } });
        await waitFor(async () => markers.includes("after-renewal"), 30_000);
        expect(runs).toBe(1);
      } finally {
        await b.stop();
      }
      finish();
      await waitFor(async () => (await jobRow(kind)).status === "DONE", 30_000);
    } finally {
      finish();
      await a.stop();
    }
    expect(runs).toBe(1);
    expect(await jobRow(kind)).toMatchObject({ status: "DONE", attempts: 1, locked_at: null });
  });
});
