// "Send test event": one `webhook.test` message to one endpoint, whatever events it subscribes
// to, delivered by the worker like any other (signed, retried, checked against the URL policy
// at each attempt), so an admin sees in the deliveries list whether the receiver answers.
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import type { Db } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { enqueueJob } from "../../jobs/queue";
import { InvalidState } from "../../errors";
import { WEBHOOK_DELIVERY_JOB } from "../emit";
import { deliveryView, type webhookEndpointIdSchema } from "../schemas";
import { lockEndpoint } from "./lock-endpoint";

/** The type of a test message: not a subscribable event, so no change of state ever sends one. */
export const WEBHOOK_TEST_EVENT = "webhook.test";

export type SendTestWebhookEventInput = z.output<typeof webhookEndpointIdSchema>;

export async function sendTestWebhookEvent(database: Db, input: SendTestWebhookEventInput, by: AuditContext) {
  return database.$transaction(async (tx) => {
    await lockEndpoint(tx, input.id);
    const endpoint = await tx.webhookEndpoint.findUniqueOrThrow({ where: { id: input.id }, select: { enabled: true } });
    if (!endpoint.enabled) throw new InvalidState("This endpoint is disabled: enable it to send a test event.");
    const id = `msg_${randomUUID().replace(/-/g, "")}`;
    const row = await tx.webhookDelivery.create({
      data: {
        id,
        endpointId: input.id,
        eventType: WEBHOOK_TEST_EVENT,
        payload: { type: WEBHOOK_TEST_EVENT, timestamp: new Date().toISOString(), data: { endpoint_id: input.id } },
      },
    });
    await enqueueJob(tx, { kind: WEBHOOK_DELIVERY_JOB, payload: { delivery_id: id } });
    await recordAudit(tx, by, { type: "webhook_endpoint.test_sent", target: { type: "webhook", id: input.id }, data: { delivery_id: id } });
    return deliveryView(row);
  });
}
