// The audit log: append-only in the database, exactly one typed event per console change (with
// actor, role, request id and no secret), written in the change's transaction so that a failed
// audit write leaves no change behind, readable page by page with filters, and rows written
// under the old names renamed by the event-names migration.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAuditEvent } from "@/lib/audit/events";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";
import { call, login, type Caller } from "../helpers/http";
import { callAction, type ActionCall } from "../helpers/actions";

const KEYS = "lib/actions/api-keys.ts";
const USERS = "lib/actions/users.ts";

let server: TestServer;
let admin: Caller;
let adminId: string;

beforeAll(async () => {
  server = await startTestServer();
  admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  adminId = (await server.sql.query(`SELECT id FROM users WHERE email = $1`, [ADMIN_EMAIL])).rows[0].id;
});
afterAll(async () => {
  await server?.stop();
});

async function rowsFor(requestId: string) {
  return (await server.sql.query(`SELECT * FROM audit_events WHERE request_id = $1 ORDER BY id`, [requestId])).rows;
}

const eventOf = (row: { action: string; target_type: string | null; target_id: string | null; details: unknown }) =>
  parseAuditEvent({ action: row.action, targetType: row.target_type, targetId: row.target_id, details: row.details });

describe(`audit log (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("the database refuses UPDATE and DELETE on audit_events", async () => {
    const before = (await server.sql.query(`SELECT count(*)::int AS n, max(action) AS a FROM audit_events`)).rows[0];
    expect(before.n).toBeGreaterThan(0); // the bootstrap wrote some
    await expect(server.sql.query(`UPDATE audit_events SET action = 'tampered'`)).rejects.toThrow(/append-only/);
    await expect(server.sql.query(`DELETE FROM audit_events`)).rejects.toThrow(/append-only/);
    const after = (await server.sql.query(`SELECT count(*)::int AS n, max(action) AS a FROM audit_events`)).rows[0];
    expect(after).toEqual(before);
  });

  it("writes exactly one row per console change, with actor, role, request id and no secret", async () => {
    const changes: { action: string; res: ActionCall; secrets: string[] }[] = [];

    const key = await callAction(server, admin, `${KEYS}#createApiKey`, { name: "audited key", scopes: ["ingest", "admin"] });
    expect(key.kind).toBe("ok");
    changes.push({ action: "api_key.created", res: key, secrets: [key.data.secret, key.data.secret.split("_").slice(2).join("_")] });
    const keyId = key.data.api_key.id;

    const revoke = await callAction(server, admin, `${KEYS}#revokeApiKey`, { id: keyId, reason: "rotated" });
    expect(revoke.kind).toBe("ok");
    changes.push({ action: "api_key.revoked", res: revoke, secrets: [] });

    const generated = await callAction(server, admin, `${USERS}#createUser`, { email: "gen@test.local", role: "VIEWER" });
    expect(generated.kind).toBe("ok");
    expect(generated.data.generated_password).toMatch(/.{12,}/);
    changes.push({ action: "user.created", res: generated, secrets: [generated.data.generated_password] });
    const userId = generated.data.user.id;

    const chosen = await callAction(server, admin, `${USERS}#createUser`, { email: "chosen@test.local", role: "ADMIN", password: "chosen-password-123" });
    expect(chosen.kind).toBe("ok");
    expect(chosen.data.generated_password).toBeNull();
    changes.push({ action: "user.created", res: chosen, secrets: ["chosen-password-123"] });

    const updates = [];
    for (const body of [
      { role: "ADMIN", reason: "on call" },
      { active: false, reason: "left" },
      { active: true, reason: "back" },
    ] as const) {
      const r = await callAction(server, admin, `${USERS}#updateUser`, { id: userId, ...body });
      expect(r.kind).toBe("ok");
      changes.push({ action: "user.updated", res: r, secrets: [] });
      updates.push(r);
    }

    // The generated password works (and is stored only as a hash).
    expect((await login(server.baseUrl, "gen@test.local", generated.data.generated_password)).status).toBe(200);
    const stored = (await server.sql.query(`SELECT password_hash FROM users WHERE email = 'gen@test.local'`)).rows[0].password_hash;
    expect(stored).toMatch(/^scrypt\$/);
    expect(stored).not.toContain(generated.data.generated_password);

    for (const c of changes) {
      const requestId = c.res.requestId;
      const rows = await rowsFor(requestId);
      expect(rows, c.action).toHaveLength(1);
      const [row] = rows;
      expect(row).toMatchObject({ action: c.action, actor_type: "user", actor_id: adminId, actor_label: ADMIN_EMAIL, actor_role: "ADMIN", request_id: requestId });
      expect(row.target_type).toBeTruthy();
      expect(row.target_id).toBeTruthy();
      expect(row.client_hash).toMatch(/^[0-9a-f]{16}$/);
      expect(eventOf(row), c.action).toMatchObject({ type: c.action, target: { type: row.target_type, id: row.target_id } });
      const text = JSON.stringify(row);
      for (const s of c.secrets) expect(text).not.toContain(s);
      expect(text).not.toMatch(/scrypt\$|password_hash|"hash"/);
    }
    // The revocation keeps the admin's reason; a user change keeps before, after and reason.
    expect((await rowsFor(revoke.requestId))[0].details).toEqual({ reason: "rotated" });
    expect((await rowsFor(updates[1].requestId))[0].details).toEqual({
      role_before: "ADMIN",
      role_after: "ADMIN",
      active_before: true,
      active_after: false,
      reason: "left",
    });
    expect((await rowsFor(generated.requestId))[0].details).toEqual({ email: "gen@test.local", role: "VIEWER", password_generated: true });
  });

  it("a refused request writes no audit row", async () => {
    const invalid = await callAction(server, admin, `${KEYS}#createApiKey`, { name: "", scopes: [] });
    expect(invalid.kind).toBe("validation_error");
    expect(invalid.error!.fields!.map((f) => f.path)).toEqual(["/name", "/scopes"]);
    const dup = await callAction(server, admin, `${USERS}#createUser`, { email: ADMIN_EMAIL, role: "VIEWER" });
    expect(dup.kind).toBe("conflict");
    for (const r of [invalid, dup]) expect(await rowsFor(r.requestId)).toHaveLength(0);
  });

  it("when the audit row cannot be written, the change does not happen and the caller gets 503", async () => {
    const victim = await callAction(server, admin, `${USERS}#createUser`, { email: "victim@test.local", role: "VIEWER", password: "victim-password-1" });
    const liveKey = await callAction(server, admin, `${KEYS}#createApiKey`, { name: "live key", scopes: ["ingest"] });
    const before = (await server.sql.query(`SELECT count(*)::int AS n FROM audit_events`)).rows[0].n;
    await server.sql.query(`
      CREATE FUNCTION test_audit_unavailable() RETURNS trigger AS $$
      BEGIN RAISE EXCEPTION 'audit store unavailable (test)'; END; $$ LANGUAGE plpgsql;
      CREATE TRIGGER test_audit_unavailable BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION test_audit_unavailable();`);
    try {
      const attempts = [
        await callAction(server, admin, `${KEYS}#createApiKey`, { name: "unaudited key", scopes: ["ingest"] }),
        await callAction(server, admin, `${USERS}#createUser`, { email: "unaudited@test.local", role: "VIEWER" }),
        await callAction(server, admin, `${USERS}#updateUser`, { id: victim.data.user.id, active: false, reason: "x" }),
        await callAction(server, admin, `${KEYS}#revokeApiKey`, { id: liveKey.data.api_key.id, reason: "x" }),
      ];
      for (const r of attempts) {
        expect(r.kind).toBe("unavailable");
        expect(r.error!.message).toBe("The audit log could not be written; nothing was changed.");
        expect(r.text).not.toContain("audit store unavailable (test)"); // no internal detail
        // The secret of a key that was never stored must not have been handed out either.
        expect(r.text).not.toContain("pk_");
      }
    } finally {
      await server.sql.query(`DROP TRIGGER test_audit_unavailable ON audit_events; DROP FUNCTION test_audit_unavailable();`);
    }
    const q = (sql: string) => server.sql.query(sql).then((r) => r.rows);
    expect(await q(`SELECT id FROM api_keys WHERE name = 'unaudited key'`)).toHaveLength(0);
    expect(await q(`SELECT id FROM users WHERE email = 'unaudited@test.local'`)).toHaveLength(0);
    expect((await q(`SELECT active FROM users WHERE email = 'victim@test.local'`))[0].active).toBe(true);
    expect((await q(`SELECT revoked_at FROM api_keys WHERE name = 'live key'`))[0].revoked_at).toBeNull();
    expect((await server.sql.query(`SELECT count(*)::int AS n FROM audit_events`)).rows[0].n).toBe(before);
    // With the audit store back, the same change goes through.
    expect((await callAction(server, admin, `${KEYS}#createApiKey`, { name: "unaudited key", scopes: ["ingest"] })).kind).toBe("ok");
  });

  it("reads the log page by page, filtered by actor, action, target and time", async () => {
    const all = await call(server.baseUrl, admin, "GET", "/api/console/audit?page_size=200");
    expect(all.status).toBe(200);
    const total = all.json.total as number;
    expect(all.json.events).toHaveLength(total);
    // Newest first, unless asked otherwise.
    const times = all.json.events.map((e: { at: string }) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
    const asc = await call(server.baseUrl, admin, "GET", "/api/console/audit?page_size=200&dir=asc");
    expect(asc.json.events.map((e: { id: string }) => e.id)).toEqual([...all.json.events.map((e: { id: string }) => e.id)].reverse());

    const page2 = await call(server.baseUrl, admin, "GET", "/api/console/audit?page_size=2&page=2");
    expect(page2.json.events.map((e: { id: string }) => e.id)).toEqual(all.json.events.slice(2, 4).map((e: { id: string }) => e.id));
    expect(page2.json.total).toBe(total);

    const keys = await call(server.baseUrl, admin, "GET", "/api/console/audit?action=api_key.&page_size=200");
    expect(keys.json.events.length).toBeGreaterThan(0);
    expect(keys.json.events.every((e: { action: string }) => e.action.startsWith("api_key."))).toBe(true);

    const byActor = await call(server.baseUrl, admin, "GET", `/api/console/audit?actor=${encodeURIComponent("ADMIN@test")}&page_size=200`);
    expect(byActor.json.events.length).toBeGreaterThan(0);
    expect(byActor.json.events.every((e: { actor_label: string }) => e.actor_label === ADMIN_EMAIL)).toBe(true);

    const victimId = (await server.sql.query(`SELECT id FROM users WHERE email = 'victim@test.local'`)).rows[0].id;
    const byTarget = await call(server.baseUrl, admin, "GET", `/api/console/audit?target_type=user&target=${victimId}`);
    expect(byTarget.json.events.map((e: { action: string }) => e.action)).toEqual(["user.created"]);
    expect(byTarget.json.events[0].event).toMatchObject({ type: "user.created", data: { email: "victim@test.local", role: "VIEWER" } });

    const future = new Date(Date.now() + 86_400_000).toISOString();
    const none = await call(server.baseUrl, admin, "GET", `/api/console/audit?from=${encodeURIComponent(future)}`);
    expect(none.json).toMatchObject({ total: 0, events: [] });
    const past = await call(server.baseUrl, admin, "GET", `/api/console/audit?to=${encodeURIComponent(future)}&page_size=1`);
    expect(past.json.total).toBe(total);

    const bad = await call(server.baseUrl, admin, "GET", "/api/console/audit?from=yesterday");
    expect(bad.status).toBe(400);
    expect(bad.json.code).toBe("validation_error");

    // The page renders the same filtered view from the URL, as a sentence linking to the users.
    const page = await call(server.baseUrl, admin, "GET", `/audit?target_type=user&target=${victimId}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-event="user.created"');
    expect(page.text).not.toContain('data-event="api_key.created"');
    expect(page.text).toContain(`href="/settings/users#user-${victimId}">user victim@test.local</a>`);
    // The action filter offers every event type of the union.
    expect(page.text).toContain('value="persona_proposal.approved"');
  });

  it("every row written so far is a typed event", async () => {
    const rows = (await server.sql.query(`SELECT action, target_type, target_id, details FROM audit_events`)).rows;
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(eventOf(row), row.action).not.toBeNull();
  });

  it("the event-names migration renames rows written under the old names; a row no type describes is shown raw", async () => {
    const legacy = [
      ["user.deactivate", "user", "u-legacy", { role_before: "VIEWER", role_after: "VIEWER", active_before: true, active_after: false, reason: "left" }],
      ["api_key.create", "api_key", "k-legacy", { name: "old key", prefix: "pk_abcdefghij", scopes: ["ingest"] }],
      ["learning.class_distilled", "agent", "legacy-agent", { report_id: "r-1", trigger: "distill", promoted: [], deprecated: [], rejected: [], skipped: 0, deferred: 0, canonical_hash: "c0ffee" }],
      ["persona_pause_requested", "account", "account:0123456789abcdef", { content_mode: "persona_profile", revision: 3, paused: false }],
      ["persona_daily_review_started", "account", "account:0123456789abcdef", { content_mode: "persona_profile" }],
      ["legacy.unknown_thing", "agent", "legacy-agent", { note: 1 }],
    ] as const;
    for (const [action, targetType, targetId, details] of legacy) {
      await server.sql.query(`INSERT INTO audit_events (actor_type, action, target_type, target_id, request_id, details) VALUES ('system', $1, $2, $3, 'legacy-import', $4)`, [
        action,
        targetType,
        targetId,
        JSON.stringify(details),
      ]);
    }
    const dir = path.join(process.cwd(), "prisma/migrations");
    const migration = readdirSync(dir).find((n) => n.endsWith("_audit_event_names"))!;
    await server.sql.query(readFileSync(path.join(dir, migration, "migration.sql"), "utf8"));

    const rows = await rowsFor("legacy-import");
    expect(rows.map((r) => [r.action, r.details])).toEqual([
      ["user.updated", legacy[0][3]],
      ["api_key.created", legacy[1][3]],
      ["class.distilled", { report_id: "r-1", promoted: [], deprecated: [], rejected: [], skipped: 0, deferred: 0, canonical_hash: "c0ffee" }],
      ["persona_profile.resumed", { revision: 3 }],
      ["persona_reflection.requested", { trigger: "daily" }],
      ["legacy.unknown_thing", { note: 1 }],
    ]);
    expect(rows.slice(0, 5).map(eventOf)).not.toContain(null);
    // The guard is back on after the migration.
    await expect(server.sql.query(`UPDATE audit_events SET action = 'tampered' WHERE request_id = 'legacy-import'`)).rejects.toThrow(/append-only/);

    const page = await call(server.baseUrl, admin, "GET", "/audit?target=legacy-agent");
    expect(page.status).toBe(200);
    expect(page.text).toContain("Distilled class");
    expect(page.text).toContain("Unrecognized (legacy) event");
    expect(page.text).toContain('data-event="legacy.unknown_thing"');
  });
});
