// API keys over their life (README "API keys") on the real server: optional expiry (401 key_expired once
// past, only to a caller holding the secret), rotation (a new secret for the same record, the
// old one valid for the grace period), last use and client address recorded at most once a
// minute, all shown in Settings → API keys; create, rotate and revoke audited without secrets.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";
import { call, login, withKey, type Caller } from "../helpers/http";
import { callAction } from "../helpers/actions";
import { createKey, expiredKey, garbageKey, ingestKey, revokedKey, rotateKey } from "../helpers/keys";

let server: TestServer;
let admin: Caller;
const probe = (caller: Caller) => call(server.baseUrl, caller, "GET", "/api/v1/agents/keys-agent");
const listed = async (id: string) => {
  const r = await call(server.baseUrl, admin, "GET", "/api/console/api-keys");
  expect(r.status).toBe(200);
  return r.json.api_keys.find((k: { id: string }) => k.id === id);
};
const keyRow = async (id: string) => (await server.sql.query("SELECT * FROM api_keys WHERE id = $1", [id])).rows[0];

beforeAll(async () => {
  server = await startTestServer();
  admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  const k = await createKey(server, admin, { scopes: ["ingest", "admin"] });
  expect((await call(server.baseUrl, k.caller, "PUT", "/api/v1/agents/keys-agent", { name: "Keys agent" })).status).toBe(200);
});
afterAll(async () => {
  await server?.stop();
});

describe(`API key lifecycle (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("an expiry is chosen at creation; past it the key answers 401 key_expired, a wrong secret still plain unauthorized", async () => {
    for (const expires_at of [new Date(Date.now() - 60_000).toISOString(), "tomorrow"]) {
      const r = await callAction(server, admin, "lib/actions/api-keys.ts#createApiKey", { name: "bad expiry", scopes: ["ingest"], expires_at });
      expect(r.kind, expires_at).toBe("validation_error");
    }
    const later = new Date(Date.now() + 86_400_000).toISOString();
    const key = await ingestKey(server, admin, { expires_at: later });
    expect(key.view).toMatchObject({ expires_at: later, status: "active" });
    expect((await probe(key.caller)).status).toBe(200);

    const expired = await expiredKey(server, admin);
    const r = await probe(expired.caller);
    expect(r.status).toBe(401);
    expect(r.headers.get("content-type")).toContain("application/problem+json");
    expect(r.json.code).toBe("key_expired");
    const forged = withKey(expired.secret.slice(0, expired.secret.lastIndexOf("_") + 1) + "x".repeat(32));
    expect((await probe(forged)).json.code).toBe("unauthorized");
    expect((await listed(expired.id)).status).toBe("expired");
    const rotate = await callAction(server, admin, "lib/actions/api-keys.ts#rotateApiKey", { id: expired.id, reason: "too late" });
    expect(rotate.kind).toBe("invalid_state");
  });

  it("revoked and unknown keys answer 401 unauthorized", async () => {
    for (const caller of [(await revokedKey(server, admin)).caller, garbageKey]) {
      const r = await probe(caller);
      expect(r.status).toBe(401);
      expect(r.json.code).toBe("unauthorized");
    }
  });

  it("rotation gives the same key a new secret; the old one works until the grace period ends, a second rotation ends it at once", async () => {
    const first = await ingestKey(server, admin, { agents: ["keys-agent"] });
    const second = await rotateKey(server, admin, first);
    expect(second.id).toBe(first.id);
    expect(second.prefix).toBe(first.prefix);
    expect(second.secret).not.toBe(first.secret);
    // The record keeps its scopes and bindings.
    expect(second.view).toMatchObject({ scopes: ["ingest"], agents: ["keys-agent"], status: "active" });
    const graceEnd = Date.parse(second.view.previous_valid_until as string);
    expect(graceEnd - Date.parse(second.view.rotated_at as string)).toBe(24 * 3_600_000);
    expect((await probe(second.caller)).status).toBe(200);
    expect((await probe(first.caller)).status).toBe(200);
    expect((await listed(first.id)).previous_valid_until).toBe(second.view.previous_valid_until);

    // Past the grace period only the new secret works.
    await server.sql.query("UPDATE api_keys SET previous_valid_until = now() - interval '1 second' WHERE id = $1", [first.id]);
    expect((await probe(first.caller)).json.code).toBe("unauthorized");
    expect((await probe(second.caller)).status).toBe(200);
    expect((await listed(first.id)).previous_valid_until).toBeNull();

    const third = await rotateKey(server, admin, second);
    expect((await probe(third.caller)).status).toBe(200);
    expect((await probe(second.caller)).status).toBe(200);
    expect((await probe(first.caller)).status).toBe(401);
    const fourth = await rotateKey(server, admin, third);
    expect((await probe(second.caller)).status).toBe(401);
    expect((await probe(fourth.caller)).status).toBe(200);

    const revoked = await callAction(server, admin, "lib/actions/api-keys.ts#revokeApiKey", { id: first.id, reason: "done" });
    expect(revoked.kind).toBe("ok");
    for (const k of [third, fourth]) expect((await probe(k.caller)).status).toBe(401);
    expect((await callAction(server, admin, "lib/actions/api-keys.ts#rotateApiKey", { id: first.id, reason: "again" })).kind).toBe("invalid_state");
  });

  it("records the last use and the client address at most once a minute, and lists them", async () => {
    const key = await ingestKey(server, admin);
    expect(await keyRow(key.id)).toMatchObject({ last_used_at: null, last_used_address: null });
    expect((await probe(key.caller)).status).toBe(200);
    const first = await keyRow(key.id);
    expect(first.last_used_at).toBeInstanceOf(Date);
    expect(first.last_used_address).toMatch(/127\.0\.0\.1$/);
    // A second request within the minute writes nothing (no write per request on the hot path).
    expect((await probe(key.caller)).status).toBe(200);
    expect((await keyRow(key.id)).last_used_at).toEqual(first.last_used_at);
    // An older mark is refreshed by the next request.
    await server.sql.query("UPDATE api_keys SET last_used_at = now() - interval '2 minutes', last_used_address = NULL WHERE id = $1", [key.id]);
    expect((await probe(key.caller)).status).toBe(200);
    const refreshed = await keyRow(key.id);
    expect(refreshed.last_used_at.getTime()).toBeGreaterThan(first.last_used_at.getTime() - 1);
    expect(refreshed.last_used_address).toMatch(/127\.0\.0\.1$/);
    expect(await listed(key.id)).toMatchObject({ last_used_at: refreshed.last_used_at.toISOString(), last_used_address: refreshed.last_used_address });
  });

  it("lists bindings and expiry, and audits create, rotate and revoke without any secret", async () => {
    const expires = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const key = await createKey(server, admin, { scopes: ["ledger:evaluate"], evaluator_id: "harness-1", tenant: "acme", agents: ["keys-agent"], expires_at: expires });
    expect(await listed(key.id)).toMatchObject({ scopes: ["ledger:evaluate"], evaluator_id: "harness-1", tenant: "acme", agents: ["keys-agent"], expires_at: expires, status: "active" });
    const rotated = await rotateKey(server, admin, key);
    expect((await callAction(server, admin, "lib/actions/api-keys.ts#revokeApiKey", { id: key.id, reason: "leaked" })).kind).toBe("ok");

    const rows = (await server.sql.query("SELECT action, details FROM audit_events WHERE target_type = 'api_key' AND target_id = $1 ORDER BY id", [key.id])).rows;
    expect(rows.map((r) => r.action)).toEqual(["api_key.created", "api_key.rotated", "api_key.revoked"]);
    expect(rows[0].details).toEqual({ name: expect.any(String), prefix: key.prefix, scopes: ["ledger:evaluate"], tenant: "acme", agents: ["keys-agent"], evaluator_id: "harness-1", expires_at: expires });
    expect(rows[1].details).toEqual({ prefix: key.prefix, previous_valid_until: rotated.view.previous_valid_until, reason: "test: rotation" });
    const stored = await keyRow(key.id);
    const everything = JSON.stringify(rows);
    for (const secret of [key.secret, rotated.secret, stored.hash, stored.previous_hash]) expect(everything).not.toContain(secret.slice(14));

    const page = await call(server.baseUrl, admin, "GET", "/audit?action=api_key.rotated");
    expect(page.status).toBe(200);
    expect(page.text.replace(/<!-- -->/g, "")).toContain(`Rotated the secret of`);
  });
});
