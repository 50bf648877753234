// Registers webhook delivery, and the hourly pruning of old deliveries, with the worker runtime
// (imported by scripts/start.ts and scripts/worker.ts).
import { registerJobHandler, registerPeriodicTask } from "../jobs/runtime";
import { attemptDelivery } from "./deliver";
import { WEBHOOK_DELIVERY_JOB } from "./emit";
import { pruneExpiredDeliveries } from "./retention";

registerJobHandler(WEBHOOK_DELIVERY_JOB, async (database, payload) => {
  const id = (payload as { delivery_id?: unknown } | null)?.delivery_id;
  if (typeof id === "string") await attemptDelivery(database, id);
});

registerPeriodicTask("webhook deliveries", pruneExpiredDeliveries);
