// Login, sessions and the guards around writes: throttling, cross-origin refusal, read-only
// mode, deactivation and role changes that take effect at once, and the last-admin rule.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_KEY, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";
import { anonymous, call, login, withKey, type Caller } from "../helpers/http";
import { createConsoleUser, loginFrom } from "../helpers/console";
import { callAction } from "../helpers/actions";

const CREATE_KEY = "lib/actions/api-keys.ts#createApiKey";
const CREATE_USER = "lib/actions/users.ts#createUser";
const UPDATE_USER = "lib/actions/users.ts#updateUser";

let server: TestServer;
let admin: Caller;

beforeAll(async () => {
  server = await startTestServer();
  admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
});
afterAll(async () => {
  await server?.stop();
});

const auditCount = async (s: TestServer) => (await s.sql.query(`SELECT count(*)::int AS n FROM audit_events`)).rows[0].n as number;

describe(`login throttling (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("answers 429 after 5 failures a minute for one account and address, and nobody else", async () => {
    await createConsoleUser(server.baseUrl, admin, { email: "target@test.local", role: "VIEWER", password: "target-password-1" });
    await createConsoleUser(server.baseUrl, admin, { email: "bystander@test.local", role: "VIEWER", password: "bystander-pass-1" });
    for (let i = 0; i < 5; i++) {
      const r = await loginFrom(server.baseUrl, "target@test.local", `wrong-${i}`);
      expect(r.status).toBe(401);
      expect(r.session).toBe(false);
    }
    const blocked = await loginFrom(server.baseUrl, "Target@Test.local", "wrong-again");
    expect(blocked.status).toBe(429);
    expect(blocked.headers["content-type"]).toContain("application/problem+json");
    expect(JSON.parse(blocked.body)).toMatchObject({ status: 429, code: "rate_limited" });
    expect(Number(blocked.headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(blocked.headers["retry-after"])).toBeLessThanOrEqual(60);
    // Even the right password is refused while the pair is throttled: guessing stops here.
    const right = await loginFrom(server.baseUrl, "target@test.local", "target-password-1");
    expect(right.status).toBe(429);
    expect(right.session).toBe(false);

    // Another account from the same address, and the same account from another address, are unaffected.
    const other = await loginFrom(server.baseUrl, "bystander@test.local", "bystander-pass-1");
    expect(other.status).toBe(200);
    expect(other.session).toBe(true);
    const elsewhere = await loginFrom(server.baseUrl, "target@test.local", "target-password-1", "127.0.0.2");
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.session).toBe(true);
    const session = await call(server.baseUrl, elsewhere.caller, "GET", "/api/auth/session");
    expect(session.json.user.email).toBe("target@test.local");
  });

  it("ignores a client-supplied X-Forwarded-For (the socket's address counts)", async () => {
    await createConsoleUser(server.baseUrl, admin, { email: "spoof@test.local", role: "VIEWER", password: "spoof-password-1" });
    for (let i = 0; i < 5; i++) await loginFrom(server.baseUrl, "spoof@test.local", `wrong-${i}`, "127.0.0.3");
    const csrf = await fetch(`${server.baseUrl}/api/auth/csrf`);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const r = await fetch(`${server.baseUrl}/api/auth/callback/credentials`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie: csrf.headers.getSetCookie().map((c) => c.split(";")[0]).join("; "),
        "x-forwarded-for": "10.9.8.7",
        origin: server.baseUrl, // a browser's sign-in names its origin; one that names none is refused
      },
      body: new URLSearchParams({ csrfToken, email: "spoof@test.local", password: "wrong", json: "true" }),
    });
    expect(r.status).toBe(401); // 127.0.0.1 (the real socket) has no failures yet for this account
    const again = await loginFrom(server.baseUrl, "spoof@test.local", "wrong", "127.0.0.3");
    expect(again.status).toBe(429);
  });

  it("stores pseudonyms, never the email or address", async () => {
    const rows = await server.sql.query(`SELECT account, client_hash FROM login_failures`);
    expect(rows.rows.length).toBeGreaterThan(0);
    for (const r of rows.rows) {
      expect(r.account).not.toContain("@");
      expect(r.client_hash).not.toContain("127.0.0");
    }
  });
});

describe("cross-origin writes", () => {
  it("refuses a state-changing request whose Origin or Referer names another host", async () => {
    const before = await auditCount(server);
    // A server action from another origin is refused before Next.js reads it.
    const viaOrigin = await callAction(server, admin, CREATE_KEY, { name: "csrf", scopes: ["ingest"] }, { origin: "http://evil.example" });
    expect(viaOrigin.kind).toBe("rejected");
    expect(viaOrigin.httpStatus).toBe(403);
    const { origin: _drop, ...noOrigin } = admin.headers;
    const viaReferer = await callAction(server, { headers: noOrigin }, CREATE_KEY, { name: "csrf", scopes: ["ingest"] }, { referer: "http://evil.example/page" });
    expect(viaReferer.kind).toBe("forbidden");
    const viaRoute = await call(server.baseUrl, withKey(ADMIN_KEY), "PUT", "/api/v1/agents/csrf-bot", { name: "CSRF" }, { origin: "http://evil.example" });
    expect(viaRoute.status).toBe(403);
    expect(viaRoute.headers.get("content-type")).toContain("application/problem+json");
    const login = await fetch(`${server.baseUrl}/api/auth/callback/credentials`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://evil.example" },
      body: new URLSearchParams({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
    });
    expect(login.status).toBe(403);
    expect((await server.sql.query(`SELECT count(*)::int AS n FROM api_keys WHERE name = 'csrf'`)).rows[0].n).toBe(0);
    expect((await server.sql.query(`SELECT count(*)::int AS n FROM agents WHERE id = 'csrf-bot'`)).rows[0].n).toBe(0);
    expect(await auditCount(server)).toBe(before);
    // The same request from the console's own origin goes through.
    const same = await callAction(server, admin, CREATE_KEY, { name: "same-origin", scopes: ["ingest"] });
    expect(same.kind).toBe("ok");
  });
});

describe("sessions follow the database", () => {
  it("refuses a deactivated user's session at once, and a demotion ends the admin's session", async () => {
    const viewer = await createConsoleUser(server.baseUrl, admin, { email: "leaver@test.local", role: "VIEWER", password: "leaver-password-1" });
    const other = await createConsoleUser(server.baseUrl, admin, { email: "admin2@test.local", role: "ADMIN", password: "admin2-password-1" });
    const viewerSession = await login(server.baseUrl, "leaver@test.local", "leaver-password-1");
    const adminSession = await login(server.baseUrl, "admin2@test.local", "admin2-password-1");
    expect((await call(server.baseUrl, viewerSession, "GET", "/agents")).status).toBe(200);
    expect((await call(server.baseUrl, adminSession, "GET", "/api/console/users")).status).toBe(200);

    expect((await callAction(server, admin, UPDATE_USER, { id: viewer.id, active: false, reason: "left the team" })).kind).toBe("ok");
    const page = await call(server.baseUrl, viewerSession, "GET", "/agents");
    expect(page.status).toBe(307);
    expect(page.headers.get("location")).toContain("/login");
    expect((await login(server.baseUrl, "leaver@test.local", "leaver-password-1")).status).toBe(401);

    // A demotion ends the admin's sessions; signed in again, they are a viewer.
    expect((await callAction(server, admin, UPDATE_USER, { id: other.id, role: "VIEWER", reason: "least privilege" })).kind).toBe("ok");
    expect((await call(server.baseUrl, adminSession, "GET", "/api/console/users")).status).toBe(401);
    expect((await callAction(server, adminSession, CREATE_USER, { email: "late@test.local", role: "VIEWER" })).kind).toBe("unauthorized");
    const demoted = await login(server.baseUrl, "admin2@test.local", "admin2-password-1");
    expect((await call(server.baseUrl, demoted, "GET", "/api/console/users")).status).toBe(403);
    expect((await callAction(server, demoted, CREATE_USER, { email: "late@test.local", role: "VIEWER" })).kind).toBe("forbidden");
    expect((await call(server.baseUrl, demoted, "GET", "/settings/users")).status).toBe(403);

    expect((await callAction(server, admin, UPDATE_USER, { id: other.id, active: false, reason: "gone" })).kind).toBe("ok");
    expect((await call(server.baseUrl, demoted, "GET", "/api/console/audit")).status).toBe(401);
    // The JWT is still valid; the action re-reads the user and refuses.
    expect((await callAction(server, demoted, CREATE_USER, { email: "late@test.local", role: "VIEWER" })).kind).toBe("unauthorized");
    expect((await server.sql.query(`SELECT count(*)::int AS n FROM users WHERE email = 'late@test.local'`)).rows[0].n).toBe(0);
  });

  it("an admin cannot demote or deactivate themselves", async () => {
    const me = (await call(server.baseUrl, admin, "GET", "/api/console/users")).json.users.find((u: { email: string }) => u.email === ADMIN_EMAIL);
    for (const change of [{ role: "VIEWER" }, { active: false }]) {
      const r = await callAction(server, admin, UPDATE_USER, { id: me.id, ...change, reason: "oops" });
      expect(r.kind).toBe("invalid_state");
    }
  });

  it("two admins demoting each other at once leave one admin", async () => {
    const a = await createConsoleUser(server.baseUrl, admin, { email: "duel-a@test.local", role: "ADMIN", password: "duel-a-password" });
    const b = await createConsoleUser(server.baseUrl, admin, { email: "duel-b@test.local", role: "ADMIN", password: "duel-b-password" });
    // The bootstrap admin steps aside so that a and b are the only active admins.
    const boot = (await call(server.baseUrl, admin, "GET", "/api/console/users")).json.users.find((u: { email: string }) => u.email === ADMIN_EMAIL);
    const sa = await login(server.baseUrl, "duel-a@test.local", "duel-a-password");
    const sb = await login(server.baseUrl, "duel-b@test.local", "duel-b-password");
    expect((await callAction(server, sa, UPDATE_USER, { id: boot.id, role: "VIEWER", reason: "hand over" })).kind).toBe("ok");
    const [ra, rb] = await Promise.all([
      callAction(server, sa, UPDATE_USER, { id: b.id, role: "VIEWER", reason: "duel" }),
      callAction(server, sb, UPDATE_USER, { id: a.id, role: "VIEWER", reason: "duel" }),
    ]);
    expect([ra.kind, rb.kind].filter((k) => k === "ok")).toHaveLength(1);
    // The loser is refused, or, when the winner's demotion committed first, finds its session ended.
    expect([ra.kind, rb.kind].filter((k) => k === "forbidden" || k === "invalid_state" || k === "conflict" || k === "unauthorized")).toHaveLength(1);
    const admins = await server.sql.query(`SELECT email FROM users WHERE role = 'ADMIN' AND active`);
    expect(admins.rows).toHaveLength(1);
    // Restore the bootstrap admin for the tests that follow.
    const winner = admins.rows[0].email === "duel-a@test.local" ? sa : sb;
    expect((await callAction(server, winner, UPDATE_USER, { id: boot.id, role: "ADMIN", reason: "restore" })).kind).toBe("ok");
  });
});

describe("read-only mode and single sign-on", () => {
  let ro: TestServer;
  beforeAll(async () => {
    ro = await startTestServer({
      env: {
        PROCTOR_READ_ONLY: "1",
        PROCTOR_OIDC_ISSUER: "https://idp.invalid/realms/acme",
        PROCTOR_OIDC_CLIENT_ID: "proctor",
        PROCTOR_OIDC_CLIENT_SECRET: "not-a-real-secret",
        PROCTOR_OIDC_NAME: "Acme SSO",
      },
    });
  });
  afterAll(async () => {
    await ro?.stop();
  });

  it("refuses every mutation but still lets people sign in and look", async () => {
    const before = await auditCount(ro);
    const session = await login(ro.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    expect(session.status).toBe(200);
    expect((await call(ro.baseUrl, session, "GET", "/api/console/users")).status).toBe(200);
    const page = await call(ro.baseUrl, session, "GET", "/agents");
    expect(page.status).toBe(200);
    expect(page.text).toContain("Read-only mode");

    for (const r of [
      await callAction(ro, session, CREATE_KEY, { name: "ro", scopes: ["ingest"] }),
      await callAction(ro, session, CREATE_USER, { email: "ro@test.local", role: "VIEWER" }),
    ]) {
      expect(r.kind).toBe("forbidden");
      expect(r.error!.message).toContain("read-only");
    }
    const put = await call(ro.baseUrl, withKey(ADMIN_KEY), "PUT", "/api/v1/agents/ro-bot", { name: "RO" });
    expect(put.status).toBe(403);
    expect(put.json.detail).toContain("read-only");
    expect((await ro.sql.query(`SELECT count(*)::int AS n FROM users WHERE email = 'ro@test.local'`)).rows[0].n).toBe(0);
    expect((await ro.sql.query(`SELECT count(*)::int AS n FROM api_keys WHERE name = 'ro'`)).rows[0].n).toBe(0);
    expect((await ro.sql.query(`SELECT count(*)::int AS n FROM agents`)).rows[0].n).toBe(0);
    expect(await auditCount(ro)).toBe(before);
  });

  it("offers the configured OIDC provider on the login page", async () => {
    const page = await call(ro.baseUrl, anonymous, "GET", "/login");
    expect(page.text).toContain("Sign in with Acme SSO");
    const providers = await call(ro.baseUrl, anonymous, "GET", "/api/auth/providers");
    expect(Object.keys(providers.json)).toEqual(["credentials", "oidc"]);
    // Without OIDC settings there is no button.
    expect((await call(server.baseUrl, anonymous, "GET", "/login")).text).not.toContain("Sign in with");
  });
});
