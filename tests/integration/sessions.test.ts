// Sign-in and sessions as an attacker tries them (README "Console sign-in and sessions"): the throttle
// cannot be sidestepped with a second `email` field or by spreading guesses over addresses or
// accounts, sign-in sends people only to paths on this site, and sessions end for good on
// sign-out (that session), deactivation, a role change, a password reset and "Sign out
// everywhere" (all of the user's). Cookies are
// Secure when the public URL is https.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";
import { call, login, type Caller } from "../helpers/http";
import { createConsoleUser, loginFrom, signInWithForm, signOut } from "../helpers/console";
import { callAction } from "../helpers/actions";

const CREATE_KEY = "lib/actions/api-keys.ts#createApiKey";
const UPDATE_USER = "lib/actions/users.ts#updateUser";
const SIGN_OUT_EVERYWHERE = "lib/actions/users.ts#signOutEverywhere";
const RESET_PASSWORD = "lib/actions/users.ts#resetPassword";

let server: TestServer;
let admin: Caller;

beforeAll(async () => {
  server = await startTestServer();
  admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
});
afterAll(async () => {
  await server?.stop();
});

const count = async (sql: string, ...params: unknown[]) => (await server.sql.query(sql, params)).rows[0].n as number;
/** A session is alive when a page renders for it; an ended one is sent to sign in. */
const pageStatus = async (caller: Caller) => (await call(server.baseUrl, caller, "GET", "/agents")).status;

describe("sign-in throttling cannot be sidestepped", () => {
  it("refuses a form with two email fields, and throttles on the email that authenticates", async () => {
    await createConsoleUser(server.baseUrl, admin, { email: "twice@test.local", role: "VIEWER", password: "twice-password-1" });
    const from = "127.0.0.40";
    // The probe: a decoy first, the real account last. Every such form is refused, the right password too.
    for (const password of ["wrong-1", "wrong-2", "wrong-3", "wrong-4", "wrong-5", "wrong-6", "twice-password-1"]) {
      const r = await signInWithForm(server.baseUrl, [["email", "decoy@x.test"], ["email", "twice@test.local"], ["password", password]], from);
      expect(r.status).toBe(400);
      expect(r.headers["content-type"]).toContain("application/problem+json");
      expect(JSON.parse(r.body)).toMatchObject({ status: 400, code: "validation_error" });
      expect(r.session).toBe(false);
    }
    // Single fields: the sixth failure in a minute is refused, and so is the right password after it.
    for (let i = 0; i < 5; i++) expect((await loginFrom(server.baseUrl, "twice@test.local", `wrong-${i}`, from)).status).toBe(401);
    const blocked = await loginFrom(server.baseUrl, "TWICE@test.local ", "twice-password-1", from);
    expect(blocked.status).toBe(429);
    expect(blocked.session).toBe(false);
    expect(Number(blocked.headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(blocked.headers["retry-after"])).toBeLessThanOrEqual(60);
  });

  it("throttles one account guessed from many addresses", async () => {
    await createConsoleUser(server.baseUrl, admin, { email: "spread@test.local", role: "VIEWER", password: "spread-password-1" });
    // 4 failures from each of 5 addresses: no (account, address) pair reaches its limit of 5.
    for (const host of [50, 51, 52, 53, 54]) {
      for (let i = 0; i < 4; i++) expect((await loginFrom(server.baseUrl, "spread@test.local", `wrong-${i}`, `127.0.0.${host}`)).status).toBe(401);
    }
    const sixth = await loginFrom(server.baseUrl, "spread@test.local", "spread-password-1", "127.0.0.55");
    expect(sixth.status).toBe(429);
    expect(sixth.session).toBe(false);
    expect(Number(sixth.headers["retry-after"])).toBeGreaterThan(0);
    expect(JSON.parse(sixth.body)).toMatchObject({ status: 429, code: "rate_limited" });
    // Other accounts from that address are unaffected.
    expect((await loginFrom(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD, "127.0.0.55")).session).toBe(true);
  });

  it("throttles one address trying many accounts", async () => {
    await createConsoleUser(server.baseUrl, admin, { email: "sprayed@test.local", role: "VIEWER", password: "sprayed-password-1" });
    for (let i = 0; i < 20; i++) expect((await loginFrom(server.baseUrl, `ghost-${i}@test.local`, "guess", "127.0.0.60")).status).toBe(401);
    const next = await loginFrom(server.baseUrl, "sprayed@test.local", "sprayed-password-1", "127.0.0.60");
    expect(next.status).toBe(429);
    expect(Number(next.headers["retry-after"])).toBeGreaterThan(0);
    // The account itself is fine from elsewhere.
    expect((await loginFrom(server.baseUrl, "sprayed@test.local", "sprayed-password-1", "127.0.0.61")).session).toBe(true);
  });

  it("answers an unknown, a deactivated and a wrong-password sign-in alike", async () => {
    const gone = await createConsoleUser(server.baseUrl, admin, { email: "gone@test.local", role: "VIEWER", password: "gone-password-1" });
    expect((await callAction(server, admin, UPDATE_USER, { id: gone.id, active: false, reason: "left" })).kind).toBe("ok");
    const answers = [];
    for (const [email, password] of [["nobody@test.local", "gone-password-1"], ["gone@test.local", "gone-password-1"], [ADMIN_EMAIL, "wrong-password"]]) {
      const r = await loginFrom(server.baseUrl, email, password, "127.0.0.70");
      answers.push({ status: r.status, session: r.session, body: JSON.parse(r.body) });
    }
    expect(answers[0]).toEqual({ status: 401, session: false, body: answers[0].body });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });
});

describe("sign-in sends people only to paths on this site", () => {
  it("ignores a next path that normalizes to another host", async () => {
    const origin = new URL(server.baseUrl).origin;
    for (const next of ["/.//127.0.0.2:9/phish", "/..//evil.example/x", "/a/..//evil.example", "/./\\evil.example", "/%09/evil.example"]) {
      const r = await call(server.baseUrl, admin, "GET", `/login?next=${encodeURIComponent(next)}`);
      expect(r.status, next).toBe(307);
      expect(new URL(r.headers.get("location")!, server.baseUrl).origin, next).toBe(origin);
    }
  });
});

describe("sessions end for good", () => {
  it("sign-out ends that session for good: a copy of its cookie reads and creates nothing; other devices stay", async () => {
    await createConsoleUser(server.baseUrl, admin, { email: "leaving-admin@test.local", role: "ADMIN", password: "leaving-password-1" });
    const session = await login(server.baseUrl, "leaving-admin@test.local", "leaving-password-1");
    const otherDevice = await login(server.baseUrl, "leaving-admin@test.local", "leaving-password-1");
    const copy: Caller = { headers: { ...session.headers } };
    expect((await call(server.baseUrl, copy, "GET", "/api/console/users")).status).toBe(200);

    const out = await signOut(server.baseUrl, session);
    expect(out.status).toBe(200);
    expect(await pageStatus(otherDevice)).toBe(200);
    const users = await call(server.baseUrl, copy, "GET", "/api/console/users");
    expect(users.status).toBe(401);
    expect(users.json.code).toBe("unauthorized");
    expect((await callAction(server, copy, CREATE_KEY, { name: "after-sign-out", scopes: ["admin"] })).kind).toBe("unauthorized");
    const page = await call(server.baseUrl, copy, "GET", "/agents");
    expect(page.status).toBe(307);
    expect(page.headers.get("location")).toContain("/login");
    expect(await count(`SELECT count(*)::int AS n FROM api_keys WHERE name = 'after-sign-out'`)).toBe(0);
    // Signing in again works, and the admin's own session was never touched.
    expect(await pageStatus(await login(server.baseUrl, "leaving-admin@test.local", "leaving-password-1"))).toBe(200);
    expect(await pageStatus(admin)).toBe(200);
  });

  it("a deactivated user reactivated later does not get old sessions back", async () => {
    const user = await createConsoleUser(server.baseUrl, admin, { email: "returner@test.local", role: "VIEWER", password: "returner-password-1" });
    const old = await login(server.baseUrl, "returner@test.local", "returner-password-1");
    expect(await pageStatus(old)).toBe(200);
    expect((await callAction(server, admin, UPDATE_USER, { id: user.id, active: false, reason: "leave" })).kind).toBe("ok");
    expect((await callAction(server, admin, UPDATE_USER, { id: user.id, active: true, reason: "back" })).kind).toBe("ok");
    expect(await pageStatus(old)).toBe(307);
    expect(await pageStatus(await login(server.baseUrl, "returner@test.local", "returner-password-1"))).toBe(200);
  });

  it("a role change ends the user's sessions; the new role applies from the next sign-in", async () => {
    const user = await createConsoleUser(server.baseUrl, admin, { email: "demoted@test.local", role: "ADMIN", password: "demoted-password-1" });
    const old = await login(server.baseUrl, "demoted@test.local", "demoted-password-1");
    expect((await call(server.baseUrl, old, "GET", "/api/console/users")).status).toBe(200);
    expect((await callAction(server, admin, UPDATE_USER, { id: user.id, role: "VIEWER", reason: "least privilege" })).kind).toBe("ok");
    expect((await call(server.baseUrl, old, "GET", "/api/console/users")).status).toBe(401);
    const fresh = await login(server.baseUrl, "demoted@test.local", "demoted-password-1");
    expect((await call(server.baseUrl, fresh, "GET", "/api/console/users")).status).toBe(403);
    expect(await pageStatus(fresh)).toBe(200);
  });

  it("Sign out everywhere: admins only, with a reason, audited; ends every session of that user", async () => {
    const user = await createConsoleUser(server.baseUrl, admin, { email: "everywhere@test.local", role: "VIEWER", password: "everywhere-pass-1" });
    const laptop = await login(server.baseUrl, "everywhere@test.local", "everywhere-pass-1");
    const phone = await login(server.baseUrl, "everywhere@test.local", "everywhere-pass-1");
    // Settings → Users shows the last sign-in.
    const listed = (await call(server.baseUrl, admin, "GET", "/api/console/users")).json.users.find((u: { id: string }) => u.id === user.id);
    expect(Date.parse(listed.last_login_at)).toBeGreaterThan(Date.now() - 10 * 60_000);

    const audited = () => count(`SELECT count(*)::int AS n FROM audit_events WHERE action = 'user.signed_out_everywhere' AND target_id = $1`, user.id);
    expect((await callAction(server, laptop, SIGN_OUT_EVERYWHERE, { id: user.id, reason: "mine" })).kind).toBe("forbidden");
    expect((await callAction(server, admin, SIGN_OUT_EVERYWHERE, { id: user.id, reason: " " })).kind).toBe("validation_error");
    expect(await pageStatus(laptop)).toBe(200);
    expect(await audited()).toBe(0);

    const done = await callAction(server, admin, SIGN_OUT_EVERYWHERE, { id: user.id, reason: "lost laptop" });
    expect(done.kind).toBe("ok");
    expect(await pageStatus(laptop)).toBe(307);
    expect(await pageStatus(phone)).toBe(307);
    expect(await audited()).toBe(1);
    const row = (await server.sql.query(`SELECT details FROM audit_events WHERE action = 'user.signed_out_everywhere' AND target_id = $1`, [user.id])).rows[0];
    expect(row.details).toEqual({ reason: "lost laptop" });
    expect(await pageStatus(admin)).toBe(200);
    expect(await pageStatus(await login(server.baseUrl, "everywhere@test.local", "everywhere-pass-1"))).toBe(200);

    // A deactivated user has no sessions to end; nothing is written.
    expect((await callAction(server, admin, UPDATE_USER, { id: user.id, active: false, reason: "left" })).kind).toBe("ok");
    expect((await callAction(server, admin, SIGN_OUT_EVERYWHERE, { id: user.id, reason: "again" })).kind).toBe("invalid_state");
    expect(await audited()).toBe(1);
  });
});

describe("password reset", () => {
  it("ends every session, retires the old password, shows the new one once and audits no secret", async () => {
    const user = await createConsoleUser(server.baseUrl, admin, { email: "forgetful@test.local", role: "VIEWER", password: "forgetful-pass-1" });
    const old = await login(server.baseUrl, "forgetful@test.local", "forgetful-pass-1");
    expect((await callAction(server, old, RESET_PASSWORD, { id: user.id, reason: "mine" })).kind).toBe("forbidden");
    const r = await callAction<{ generated_password: string }>(server, admin, RESET_PASSWORD, { id: user.id, reason: "forgot it" });
    expect(r.kind).toBe("ok");
    const password = r.data.generated_password;
    expect(password.length).toBeGreaterThanOrEqual(16);
    expect(await pageStatus(old)).toBe(307);
    expect((await loginFrom(server.baseUrl, "forgetful@test.local", "forgetful-pass-1", "127.0.0.80")).status).toBe(401);
    expect(await pageStatus(await login(server.baseUrl, "forgetful@test.local", password))).toBe(200);
    const rows = await server.sql.query(`SELECT details::text AS d FROM audit_events WHERE action = 'user.password_reset' AND target_id = $1`, [user.id]);
    expect(rows.rows).toHaveLength(1);
    expect(JSON.parse(rows.rows[0].d)).toEqual({ reason: "forgot it" });
    expect(rows.rows[0].d).not.toContain(password);
  });
});

describe("cookies over https", () => {
  let https: TestServer;
  beforeAll(async () => {
    https = await startTestServer({ env: { NEXTAUTH_URL: "https://proctor.test" } });
  });
  afterAll(async () => {
    await https?.stop();
  });

  it("are Secure when the public URL is https, and the session they carry works", async () => {
    const r = await loginFrom(https.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    const session = r.setCookies.find((c) => c.includes("next-auth.session-token="));
    expect(session).toMatch(/^__Secure-next-auth\.session-token=/);
    expect(session).toMatch(/;\s*Secure/i);
    expect(session).toMatch(/;\s*HttpOnly/i);
    expect((await call(https.baseUrl, r.caller, "GET", "/agents")).status).toBe(200);
    expect((await call(https.baseUrl, r.caller, "GET", "/api/console/users")).status).toBe(200);
    // Over plain http they are not.
    const plain = (await loginFrom(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD)).setCookies.find((c) => c.includes("next-auth.session-token="));
    expect(plain).toMatch(/^next-auth\.session-token=/);
    expect(plain).not.toMatch(/;\s*Secure/i);
  });
});
