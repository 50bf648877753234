// Delivery rows do not pile up: the worker deletes finished deliveries (delivered or failed)
// older than PROCTOR_WEBHOOK_RETENTION_DAYS (30) when it starts and hourly after (./jobs.ts).
// Pending ones stay: their next attempt is queued. The page lists recent deliveries only.
import type { Db } from "../db/prisma";

const DAY_MS = 24 * 60 * 60 * 1000;

/** PROCTOR_WEBHOOK_RETENTION_DAYS: 1–3650, default 30. */
function webhookRetentionDays(env: NodeJS.ProcessEnv = process.env): number {
  const v = env.PROCTOR_WEBHOOK_RETENTION_DAYS;
  return v && /^[1-9]\d{0,3}$/.test(v) && Number(v) <= 3650 ? Number(v) : 30;
}

/** Deletes finished deliveries whose last attempt (or creation) is before `before`, in batches; returns how many. */
export async function pruneWebhookDeliveries(database: Db, before: Date, batch = 5000): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await database.$executeRaw`
      DELETE FROM webhook_deliveries WHERE id IN (
        SELECT id FROM webhook_deliveries
        WHERE status IN ('DELIVERED', 'FAILED') AND COALESCE(last_attempt_at, created_at) < ${before}
        LIMIT ${batch}::int)`;
    total += n;
    if (n < batch) return total;
  }
}

/** The periodic task: prune with the configured retention. */
export const pruneExpiredDeliveries = (database: Db) => pruneWebhookDeliveries(database, new Date(Date.now() - webhookRetentionDays() * DAY_MS));
