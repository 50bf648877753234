// Edit a webhook endpoint's URL, description, events, or switch it off and on (a disabled
// endpoint gets no new deliveries; queued ones are marked failed when their turn comes).
import type { z } from "zod";
import type { Db } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { auditUrl, endpointView, type updateWebhookEndpointSchema } from "../schemas";
import { assertWebhookTargetAllowed } from "../url-policy";
import { lockEndpoint } from "./lock-endpoint";

export type UpdateWebhookEndpointInput = z.output<typeof updateWebhookEndpointSchema>;

export async function updateWebhookEndpoint(database: Db, input: UpdateWebhookEndpointInput, by: AuditContext) {
  await assertWebhookTargetAllowed(input.url);
  return database.$transaction(async (tx) => {
    await lockEndpoint(tx, input.id);
    const row = await tx.webhookEndpoint.update({
      where: { id: input.id },
      data: { url: input.url, description: input.description, events: input.events, enabled: input.enabled },
    });
    await recordAudit(tx, by, {
      type: "webhook_endpoint.updated",
      target: { type: "webhook", id: row.id },
      data: { url: auditUrl(row.url), events: row.events, enabled: row.enabled },
    });
    return endpointView(row);
  });
}
