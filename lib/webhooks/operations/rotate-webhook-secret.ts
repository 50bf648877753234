// A new signing secret for an endpoint (the old one stops at once): returned once, stored
// encrypted, never audited. Deliveries still queued are signed with the new one.
import type { z } from "zod";
import type { Db } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import type { webhookEndpointIdSchema } from "../schemas";
import { encryptSecret, newSigningSecret } from "../secret";
import { lockEndpoint } from "./lock-endpoint";

export type RotateWebhookSecretInput = z.output<typeof webhookEndpointIdSchema>;

export async function rotateWebhookSecret(database: Db, input: RotateWebhookSecretInput, by: AuditContext) {
  return database.$transaction(async (tx) => {
    // The endpoint first: a refused rotation must not even create the instance key.
    await lockEndpoint(tx, input.id);
    const secret = newSigningSecret();
    const secretCiphertext = await encryptSecret(database, input.id, secret);
    await tx.webhookEndpoint.update({ where: { id: input.id }, data: { secretCiphertext } });
    await recordAudit(tx, by, { type: "webhook_endpoint.secret_rotated", target: { type: "webhook", id: input.id }, data: {} });
    return { id: input.id, secret };
  });
}
