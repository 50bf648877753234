// Delivery rows do not pile up: the worker deletes finished deliveries (delivered or failed)
// older than PROCTOR_WEBHOOK_RETENTION_DAYS (30) when it starts and hourly after (./jobs.ts).
// Pending ones stay: their next attempt is queued. The page lists recent deliveries only.
import type { Db } from "../db/prisma";
import { inBatches, retentionDays } from "../jobs/upkeep";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Deletes finished deliveries whose last attempt (or creation) is before `before`, in batches; returns how many. */
export function pruneWebhookDeliveries(database: Db, before: Date, batch = 5000): Promise<number> {
  return inBatches(
    () => database.$executeRaw`
      DELETE FROM webhook_deliveries WHERE id IN (
        SELECT id FROM webhook_deliveries
        WHERE status IN ('DELIVERED', 'FAILED') AND COALESCE(last_attempt_at, created_at) < ${before}
        LIMIT ${batch}::int)`,
    batch,
  );
}

/** The periodic task: prune with the configured retention (PROCTOR_WEBHOOK_RETENTION_DAYS, 1–3650, default 30). */
export const pruneExpiredDeliveries = (database: Db) =>
  pruneWebhookDeliveries(database, new Date(Date.now() - (retentionDays(process.env.PROCTOR_WEBHOOK_RETENTION_DAYS) ?? 30) * DAY_MS));
