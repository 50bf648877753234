// Registers webhook delivery with the worker runtime (imported by scripts/start.ts and
// scripts/worker.ts).
import { registerJobHandler } from "../jobs/runtime";
import { attemptDelivery } from "./deliver";
import { WEBHOOK_DELIVERY_JOB } from "./emit";

registerJobHandler(WEBHOOK_DELIVERY_JOB, async (database, payload) => {
  const id = (payload as { delivery_id?: unknown } | null)?.delivery_id;
  if (typeof id === "string") await attemptDelivery(database, id);
});
