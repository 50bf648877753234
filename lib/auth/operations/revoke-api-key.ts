// Revoke an API key, with a reason: agents using it are refused from then on. Of two
// concurrent revocations exactly one changes the row and is audited; the other is refused.
import type { z } from "zod";
import type { Db } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { InvalidState, NotFound } from "../../errors";
import { apiKeyColumns, apiKeyView, type revokeApiKeySchema } from "../api-key-admin";

export type RevokeApiKeyInput = { apiKeyId: string } & z.output<typeof revokeApiKeySchema>;

export async function revokeApiKey(database: Db, input: RevokeApiKeyInput, by: AuditContext) {
  const { apiKeyId: id, reason } = input;
  return database.$transaction(async (tx) => {
    // Conditional update: of two concurrent revocations exactly one changes the row.
    const { count } = await tx.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
    if (count === 0) {
      const exists = await tx.apiKey.findUnique({ where: { id }, select: { id: true } });
      throw exists ? new InvalidState("The API key is already revoked.") : new NotFound("The API key");
    }
    await recordAudit(tx, by, { type: "api_key.revoked", target: { type: "api_key", id }, data: { reason } });
    return apiKeyView(await tx.apiKey.findUniqueOrThrow({ where: { id }, select: apiKeyColumns }));
  });
}
