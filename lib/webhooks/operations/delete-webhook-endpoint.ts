// Delete a webhook endpoint and its delivery history (queued deliveries' jobs find nothing
// left and end).
import type { z } from "zod";
import type { Db } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { auditUrl, type webhookEndpointIdSchema } from "../schemas";
import { lockEndpoint } from "./lock-endpoint";

export type DeleteWebhookEndpointInput = z.output<typeof webhookEndpointIdSchema>;

export async function deleteWebhookEndpoint(database: Db, input: DeleteWebhookEndpointInput, by: AuditContext) {
  return database.$transaction(async (tx) => {
    const row = await lockEndpoint(tx, input.id);
    await tx.webhookEndpoint.delete({ where: { id: row.id } });
    await recordAudit(tx, by, { type: "webhook_endpoint.deleted", target: { type: "webhook", id: row.id }, data: { url: auditUrl(row.url) } });
    return { id: row.id };
  });
}
