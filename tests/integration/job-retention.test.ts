// Finished jobs do not pile up: the worker deletes DONE jobs older than the retention
// (PROCTOR_JOB_RETENTION_HOURS) when it starts and hourly after; queued, running and dead
// jobs, and recently finished ones, stay. Webhook deliveries likewise: delivered and failed
// ones older than PROCTOR_WEBHOOK_RETENTION_DAYS go, pending and recent ones stay.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, waitFor, type TestServer } from "../helpers/server";
import { startWorker } from "../helpers/worker";
import { createPrismaClient, type Db } from "@/lib/db/prisma";
import { pruneFinishedJobs } from "@/lib/jobs/queue";
import { pruneWebhookDeliveries } from "@/lib/webhooks/retention";

let server: TestServer;
let db: Db;
beforeAll(async () => {
  server = await startTestServer({ env: { PROCTOR_WORKER: "0" } });
  db = createPrismaClient(server.databaseUrl, 2);
});
afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
});

const KIND = "retention_probe"; // no handler: nothing claims these jobs

/** Jobs of the probe kind, one per (status, hours since it finished or was queued), tagged by name. */
async function seed(tag: string, jobs: [status: "DONE" | "DEAD" | "PENDING", hoursAgo: number][]) {
  for (const [i, [status, hoursAgo]] of jobs.entries()) {
    await server.sql.query(
      `INSERT INTO jobs (kind, payload, status, run_after, created_at, finished_at)
       VALUES ($1, $2, $3::"JobStatus", now() - make_interval(hours => $4::int), now() - make_interval(hours => $4::int),
               CASE WHEN $3 = 'PENDING' THEN NULL ELSE now() - make_interval(hours => $4::int) END)`,
      [KIND, { tag, name: `${status}-${hoursAgo}-${i}` }, status, hoursAgo],
    );
  }
}

async function left(tag: string): Promise<string[]> {
  const r = await server.sql.query("SELECT payload->>'name' AS name FROM jobs WHERE kind = $1 AND payload->>'tag' = $2 ORDER BY 1", [KIND, tag]);
  return r.rows.map((x) => x.name);
}

/** Deliveries of one probe endpoint, one per (status, days since the last attempt), named `<tag>-<status>-<days>`. */
async function seedDeliveries(tag: string, rows: [status: "DELIVERED" | "FAILED" | "PENDING", daysAgo: number][]) {
  await server.sql.query("INSERT INTO webhook_endpoints (id, url, events, secret_ciphertext, updated_at) VALUES ($1, 'http://127.0.0.1:9/', '{}', 'x', now())", [`ep-${tag}`]);
  for (const [status, daysAgo] of rows) {
    await server.sql.query(
      `INSERT INTO webhook_deliveries (id, endpoint_id, event_type, payload, status, created_at, last_attempt_at)
       VALUES ($1, $2, 'job.dead', '{}', $3::"WebhookDeliveryStatus", now() - make_interval(days => $4::int + 1), now() - make_interval(days => $4::int))`,
      [`${tag}-${status}-${daysAgo}`, `ep-${tag}`, status, daysAgo],
    );
  }
}

async function deliveriesLeft(tag: string): Promise<string[]> {
  const r = await server.sql.query("SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY 1", [`ep-${tag}`]);
  return r.rows.map((x) => x.id);
}

describe(`job retention (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("deletes only DONE jobs finished before the cutoff, in batches", async () => {
    await seed("core", [["DONE", 50], ["DONE", 49], ["DONE", 48], ["DONE", 2], ["DEAD", 50], ["PENDING", 50]]);
    const deleted = await pruneFinishedJobs(db, new Date(Date.now() - 24 * 3600_000), 2);
    expect(deleted).toBe(3);
    expect(await left("core")).toEqual(["DEAD-50-4", "DONE-2-3", "PENDING-50-5"]);
    expect(await pruneFinishedJobs(db, new Date(Date.now() - 24 * 3600_000), 2)).toBe(0);
  });

  it("deletes only delivered and failed webhook deliveries last attempted before the cutoff", async () => {
    await seedDeliveries("core", [["DELIVERED", 40], ["FAILED", 35], ["DELIVERED", 31], ["DELIVERED", 2], ["PENDING", 40]]);
    expect(await pruneWebhookDeliveries(db, new Date(Date.now() - 30 * 86400_000), 2)).toBe(3);
    expect(await deliveriesLeft("core")).toEqual(["core-DELIVERED-2", "core-PENDING-40"]);
  });

  it("a starting worker prunes with PROCTOR_JOB_RETENTION_HOURS and PROCTOR_WEBHOOK_RETENTION_DAYS", async () => {
    await seed("worker", [["DONE", 5], ["DONE", 1], ["DONE", 0], ["DEAD", 5]]);
    await seedDeliveries("worker", [["FAILED", 5], ["DELIVERED", 1], ["PENDING", 5]]);
    const worker = startWorker(server, { PROCTOR_JOB_RETENTION_HOURS: "3", PROCTOR_WEBHOOK_RETENTION_DAYS: "3" });
    try {
      await waitFor(async () => (await left("worker")).length === 3 && (await deliveriesLeft("worker")).length === 2, 60_000, worker.output);
      expect(await left("worker")).toEqual(["DEAD-5-3", "DONE-0-2", "DONE-1-1"]);
      expect(await deliveriesLeft("worker")).toEqual(["worker-DELIVERED-1", "worker-PENDING-5"]);
    } finally {
      await worker.stop();
    }
  });
});
