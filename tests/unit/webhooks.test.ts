// Webhook signing secrets at rest and endpoint URLs, without a database: with
// PROCTOR_WEBHOOK_KEY set the encryption key never comes from one.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { postPinned } from "@/lib/webhooks/send";
import type { Db } from "@/lib/db/prisma";
import { decryptSecret, encryptSecret, newSigningSecret } from "@/lib/webhooks/secret";
import { auditUrl, webhookUrl } from "@/lib/webhooks/schemas";
import { resolveWebhookTarget, TARGET_NOT_ALLOWED, TARGET_UNRESOLVED, targetPolicyFromEnv, type Resolver } from "@/lib/webhooks/url-policy";

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

describe("the webhook URL policy", () => {
  const none = targetPolicyFromEnv({});
  it("refuses loopback, private, link-local and metadata addresses however they are spelled, on any port", async () => {
    for (const url of [
      "http://169.254.169.254/latest/meta-data/",
      "http://10.0.0.1/hook",
      "http://10.0.0.1:5432/",
      "http://192.168.1.20/",
      "http://172.16.0.1/",
      "http://[fd00::1]/",
      "http://[fe80::1]/",
      "http://[::1]:5432/",
      "http://[::ffff:10.0.0.1]/",
      "http://127.1/",
      "http://0x7f000001:5432/",
      "http://2130706433/",
      "http://0.0.0.0/",
      "http://100.64.0.1/",
      "http://localhost:5432/",
    ]) {
      expect(await resolveWebhookTarget(url, none), url).toEqual({ ok: false, reason: TARGET_NOT_ALLOWED });
    }
    // Not resolvable outside Google's cloud, where it is 169.254.169.254 (refused above).
    expect(await resolveWebhookTarget("http://metadata.google.internal/computeMetadata/v1/", none)).toEqual({ ok: false, reason: TARGET_UNRESOLVED });
  });

  it("checks every address a name resolves to: one internal address refuses it", async () => {
    const resolver = (addresses: string[]): Resolver => async () => addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
    expect(await resolveWebhookTarget("https://hooks.example.com/p", none, resolver(["93.184.216.34", "2606:2800:220:1::1"]))).toMatchObject({ ok: true });
    expect(await resolveWebhookTarget("https://hooks.example.com/p", none, resolver(["93.184.216.34", "169.254.169.254"]))).toEqual({ ok: false, reason: TARGET_NOT_ALLOWED });
    expect(await resolveWebhookTarget("https://rebind.example.com/p", none, resolver(["::ffff:127.0.0.1"]))).toEqual({ ok: false, reason: TARGET_NOT_ALLOWED });
    expect(await resolveWebhookTarget("http://8.8.8.8/", none)).toEqual({ ok: true, addresses: [{ address: "8.8.8.8", family: 4 }] });
  });

  it("allows hosts, addresses and ranges an admin lists in PROCTOR_WEBHOOK_ALLOWED_TARGETS, and only those", async () => {
    const policy = targetPolicyFromEnv({ PROCTOR_WEBHOOK_ALLOWED_TARGETS: " 127.0.0.0/8, fd00::/8 ,10.0.0.7,Receiver.Internal" });
    for (const url of ["http://127.1:8080/", "http://0x7f000001/", "http://[fd00::1]/", "http://10.0.0.7/", "http://localhost:9/"]) {
      expect((await resolveWebhookTarget(url, policy)).ok, url).toBe(true);
    }
    const internal: Resolver = async () => [{ address: "10.9.9.9", family: 4 }];
    expect((await resolveWebhookTarget("http://receiver.internal/", policy, internal)).ok).toBe(true);
    for (const url of ["http://10.0.0.8/", "http://169.254.169.254/", "http://[::1]/"]) {
      expect(await resolveWebhookTarget(url, policy), url).toEqual({ ok: false, reason: TARGET_NOT_ALLOWED });
    }
    expect((await resolveWebhookTarget("http://other.internal/", policy, internal)).ok).toBe(false);
  });
});

describe("a webhook request", () => {
  it("connects to the checked addresses only, never resolving the name again", async () => {
    const hosts: string[] = [];
    const receiver = createServer((req, res) => {
      hosts.push(String(req.headers.host));
      req.resume();
      req.on("end", () => res.writeHead(202).end());
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    const port = (receiver.address() as AddressInfo).port;
    try {
      // ".invalid" never resolves (RFC 6761): only the pinned address can have been reached.
      const status = await postPinned(`http://hooks.invalid:${port}/in`, [{ address: "127.0.0.1", family: 4 }], { "content-type": "application/json" }, "{}", 5_000);
      expect(status).toBe(202);
      expect(hosts).toEqual([`hooks.invalid:${port}`]);
    } finally {
      await new Promise((r) => receiver.close(r));
    }
  });
});
