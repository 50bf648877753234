// Register a webhook endpoint whose URL the policy allows (../url-policy.ts): its signing secret
// is returned once (never audited or logged) and stored encrypted (../secret.ts). The endpoint
// and its audit row commit together.
import type { z } from "zod";
import type { Db } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { newId } from "../../db/row-ids";
import { auditUrl, endpointView, type createWebhookEndpointSchema } from "../schemas";
import { encryptSecret, newSigningSecret } from "../secret";
import { assertWebhookTargetAllowed } from "../url-policy";

export type CreateWebhookEndpointInput = z.output<typeof createWebhookEndpointSchema>;

export async function createWebhookEndpoint(database: Db, input: CreateWebhookEndpointInput, by: AuditContext) {
  await assertWebhookTargetAllowed(input.url);
  const id = newId();
  const secret = newSigningSecret();
  const secretCiphertext = await encryptSecret(database, id, secret);
  return database.$transaction(async (tx) => {
    const row = await tx.webhookEndpoint.create({
      data: { id, url: input.url, description: input.description, events: input.events, enabled: input.enabled, secretCiphertext },
    });
    await recordAudit(tx, by, {
      type: "webhook_endpoint.created",
      target: { type: "webhook", id },
      data: { url: auditUrl(row.url), events: row.events, enabled: row.enabled },
    });
    return { endpoint: endpointView(row), secret };
  });
}
