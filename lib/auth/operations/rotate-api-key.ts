// Rotate an API key: a new secret for the same record (same prefix, scopes, bindings and
// expiry). The secret it replaces keeps working for the grace period
// (PROCTOR_API_KEY_ROTATION_GRACE_HOURS, default 24 h) so agents can be redeployed; a second
// rotation ends the first secret at once. The new secret is returned once; neither is audited.
import type { z } from "zod";
import type { Db } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { InvalidState, NotFound } from "../../errors";
import { apiKeyColumns, apiKeyView, type rotateApiKeySchema } from "../api-key-admin";
import { generateApiKey, hashApiKey, rotationGraceMs } from "../api-keys";

export type RotateApiKeyInput = { apiKeyId: string } & z.output<typeof rotateApiKeySchema>;

export async function rotateApiKey(database: Db, input: RotateApiKeyInput, by: AuditContext) {
  const { apiKeyId: id, reason } = input;
  const graceMs = rotationGraceMs();
  return database.$transaction(async (tx) => {
    // The row lock orders concurrent rotations and revocations.
    const [key] = await tx.$queryRaw<{ prefix: string; hash: string; revoked_at: Date | null; expires_at: Date | null }[]>`
      SELECT prefix, hash, revoked_at, expires_at FROM api_keys WHERE id = ${id} FOR UPDATE`;
    if (!key) throw new NotFound("The API key");
    if (key.revoked_at) throw new InvalidState("The API key is revoked.");
    const now = new Date();
    if (key.expires_at && key.expires_at <= now) throw new InvalidState("The API key has expired; create a new one.");
    const { key: secret } = generateApiKey(key.prefix);
    const previousValidUntil = new Date(now.getTime() + graceMs);
    await tx.apiKey.update({
      where: { id },
      data: { hash: hashApiKey(secret), previousHash: key.hash, previousValidUntil, rotatedAt: now },
    });
    await recordAudit(tx, by, {
      type: "api_key.rotated",
      target: { type: "api_key", id },
      data: { prefix: `pk_${key.prefix}`, previous_valid_until: previousValidUntil.toISOString(), reason },
    });
    return { key: apiKeyView(await tx.apiKey.findUniqueOrThrow({ where: { id }, select: apiKeyColumns }), now), secret };
  });
}
