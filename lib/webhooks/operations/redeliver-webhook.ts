// Send one delivery again (an admin's "Redeliver"): a new round of attempts with the same
// message id, so a receiver that already processed it can tell. The row keeps counting every
// request made (`attempts`); the round's own count restarts. Refused while it is queued.
import type { z } from "zod";
import type { Db } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { enqueueJob } from "../../jobs/queue";
import { InvalidState, NotFound } from "../../errors";
import { WEBHOOK_DELIVERY_JOB } from "../emit";
import { deliveryView, type redeliverWebhookSchema } from "../schemas";

export type RedeliverWebhookInput = z.output<typeof redeliverWebhookSchema>;

export async function redeliverWebhook(database: Db, input: RedeliverWebhookInput, by: AuditContext) {
  return database.$transaction(async (tx) => {
    const changed = await tx.webhookDelivery.updateMany({
      where: { id: input.delivery_id, status: { in: ["DELIVERED", "FAILED"] } },
      data: { status: "PENDING", roundAttempts: 0, deliveredAt: null },
    });
    if (changed.count === 0) {
      const exists = await tx.webhookDelivery.count({ where: { id: input.delivery_id } });
      if (!exists) throw new NotFound("The webhook delivery");
      throw new InvalidState("This delivery is already queued.");
    }
    const row = await tx.webhookDelivery.findUniqueOrThrow({ where: { id: input.delivery_id } });
    await enqueueJob(tx, { kind: WEBHOOK_DELIVERY_JOB, payload: { delivery_id: row.id } });
    await recordAudit(tx, by, {
      type: "webhook_delivery.redelivered",
      target: { type: "webhook", id: row.endpointId },
      data: { delivery_id: row.id, event: row.eventType },
    });
    return deliveryView(row);
  });
}
