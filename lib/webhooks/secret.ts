// Webhook signing secrets. Standard Webhooks signs with the secret itself (HMAC-SHA256), so it
// must stay readable and cannot be stored as a hash: it is stored AES-256-GCM encrypted with a
// key derived (HKDF-SHA256) from the instance key `webhook-secrets` (lib/auth/instance-secret.ts,
// or PROCTOR_WEBHOOK_KEY to keep the key out of the database), bound to its endpoint's id.
// It is shown once, at creation or rotation, and never logged or audited.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import type { Db } from "../db/prisma";
import { instanceKey } from "../auth/instance-secret";

const VERSION = "v1";
const INFO = "proctor webhook signing secrets v1";

/** A new `whsec_` secret: 32 random bytes in base64, as Standard Webhooks libraries read it. */
export const newSigningSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

async function encryptionKey(database: Db): Promise<Buffer> {
  const root = await instanceKey(database, "webhook-secrets", process.env.PROCTOR_WEBHOOK_KEY);
  return Buffer.from(hkdfSync("sha256", root, Buffer.alloc(0), INFO, 32));
}

export async function encryptSecret(database: Db, endpointId: string, secret: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", await encryptionKey(database), iv);
  cipher.setAAD(Buffer.from(endpointId));
  const body = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return [VERSION, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), body.toString("base64url")].join(".");
}

export class WebhookSecretUnreadable extends Error {
  override name = "WebhookSecretUnreadable";
}

/** The secret, or throws when the key changed (PROCTOR_WEBHOOK_KEY) or the row was tampered with. */
export async function decryptSecret(database: Db, endpointId: string, stored: string): Promise<string> {
  const [version, iv, tag, body] = stored.split(".");
  if (version !== VERSION || !iv || !tag || body === undefined) throw new WebhookSecretUnreadable("unknown secret format");
  try {
    const decipher = createDecipheriv("aes-256-gcm", await encryptionKey(database), Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(endpointId));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new WebhookSecretUnreadable("the signing secret cannot be decrypted with this instance's key; rotate it");
  }
}
