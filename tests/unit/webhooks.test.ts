// Webhook signing secrets at rest and endpoint URLs, without a database: with
// PROCTOR_WEBHOOK_KEY set the encryption key never comes from one.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Db } from "@/lib/db/prisma";
import { decryptSecret, encryptSecret, newSigningSecret } from "@/lib/webhooks/secret";
import { auditUrl, webhookUrl } from "@/lib/webhooks/schemas";

const untouched = new Proxy({}, { get: () => { throw new Error("the database was touched"); } }) as Db;
const withKey = (k: string) => vi.stubEnv("PROCTOR_WEBHOOK_KEY", k);
afterEach(() => {
  vi.unstubAllEnvs();
});

describe("webhook signing secrets", () => {
  it("are whsec_ plus 32 random bytes, encrypted so that only their endpoint's row and the same key read them", async () => {
    withKey("one key");
    const secret = newSigningSecret();
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(32);
    expect(newSigningSecret()).not.toBe(secret);
    const stored = await encryptSecret(untouched, "ep1", secret);
    expect(stored).not.toContain(secret.slice(6));
    expect(await encryptSecret(untouched, "ep1", secret)).not.toBe(stored);
    expect(await decryptSecret(untouched, "ep1", stored)).toBe(secret);
    await expect(decryptSecret(untouched, "ep2", stored)).rejects.toThrow(/cannot be decrypted/);
    const [v, iv, tag, body] = stored.split(".");
    const flipped = Buffer.from(body, "base64url");
    flipped[0] ^= 1;
    await expect(decryptSecret(untouched, "ep1", [v, iv, tag, flipped.toString("base64url")].join("."))).rejects.toThrow(/cannot be decrypted/);
    withKey("another key");
    await expect(decryptSecret(untouched, "ep1", stored)).rejects.toThrow(/cannot be decrypted/);
  });
});

describe("webhook URLs", () => {
  it("are http or https only; audit rows name them without credentials or query", () => {
    for (const ok of ["http://127.0.0.1:8080/hook", " https://hooks.example.com/p?token=x "]) expect(webhookUrl.safeParse(ok).success, ok).toBe(true);
    for (const bad of ["ftp://example.com", "javascript:alert(1)", "file:///etc/passwd", "mailto:a@b.c", "example.com/hook", "", "https://" + "a".repeat(2000) + ".com"]) {
      expect(webhookUrl.safeParse(bad).success, bad).toBe(false);
    }
    expect(auditUrl("https://user:pw@hooks.example.com/p?token=x#f")).toBe("https://hooks.example.com/p");
  });
});
