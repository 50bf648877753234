// Accounts of the console: every user changes their own password (the current one required,
// other sessions ended on request, audited); "Sign out" ends this session only and "Sign out
// everywhere" all of them; an ended session is sent to sign in with the reason, which the
// sign-in page says.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";
import { call, login, type Caller } from "../helpers/http";
import { createConsoleUser, loginFrom, signOut } from "../helpers/console";
import { callAction } from "../helpers/actions";

const CHANGE_PASSWORD = "lib/actions/own-account.ts#changeOwnPassword";

let server: TestServer;
let admin: Caller;

beforeAll(async () => {
  server = await startTestServer();
  admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
});
afterAll(async () => {
  await server?.stop();
});

const audits = async (action: string, id: string) =>
  (await server.sql.query(`SELECT actor_id, details FROM audit_events WHERE action = $1 AND target_id = $2 ORDER BY id`, [action, id])).rows;
/** Where a page view of this caller lands: 200, or the sign-in page with its reason. */
async function landing(caller: Caller): Promise<string> {
  const r = await call(server.baseUrl, caller, "GET", "/agents");
  if (r.status === 200) return "page";
  const location = new URL(r.headers.get("location") ?? "/", server.baseUrl);
  return location.pathname === "/login" ? `login:${location.searchParams.get("reason") ?? ""}` : `status:${r.status}`;
}

describe("changing the own password", () => {
  it("needs the current password, ends the other sessions on request, and is audited without a secret", async () => {
    const user = await createConsoleUser(server.baseUrl, admin, { email: "changer@test.local", role: "VIEWER", password: "changer-password-1" });
    const here = await login(server.baseUrl, "changer@test.local", "changer-password-1");
    const phone = await login(server.baseUrl, "changer@test.local", "changer-password-1");

    const wrong = await callAction(server, here, CHANGE_PASSWORD, { current_password: "not-it", new_password: "changer-password-2", end_other_sessions: true });
    expect(wrong.kind).toBe("validation_error");
    expect(wrong.error?.fields).toEqual([{ path: "/current_password", message: "is wrong" }]);
    const short = await callAction(server, here, CHANGE_PASSWORD, { current_password: "changer-password-1", new_password: "short", end_other_sessions: true });
    expect(short.kind).toBe("validation_error");
    expect(short.error?.fields?.[0].path).toBe("/new_password");
    expect(await audits("user.password_changed", user.id)).toHaveLength(0);
    expect(await landing(phone)).toBe("page");

    const done = await callAction<{ other_sessions_ended: number }>(server, here, CHANGE_PASSWORD, { current_password: "changer-password-1", new_password: "changer-password-2", end_other_sessions: true });
    expect(done.kind).toBe("ok");
    expect(done.data.other_sessions_ended).toBe(1);
    expect(await landing(here)).toBe("page");
    expect(await landing(phone)).toBe("login:password_changed");
    expect((await loginFrom(server.baseUrl, "changer@test.local", "changer-password-1", "127.0.0.110")).status).toBe(401);
    expect(await landing(await login(server.baseUrl, "changer@test.local", "changer-password-2"))).toBe("page");
    const rows = await audits("user.password_changed", user.id);
    expect(rows).toEqual([{ actor_id: user.id, details: { other_sessions_ended: 1 } }]);
    expect(JSON.stringify(rows)).not.toContain("changer-password");
  });

  it("keeps the other sessions when not asked to end them", async () => {
    await createConsoleUser(server.baseUrl, admin, { email: "keeper@test.local", role: "ADMIN", password: "keeper-password-1" });
    const here = await login(server.baseUrl, "keeper@test.local", "keeper-password-1");
    const other = await login(server.baseUrl, "keeper@test.local", "keeper-password-1");
    const r = await callAction(server, here, CHANGE_PASSWORD, { current_password: "keeper-password-1", new_password: "keeper-password-2", end_other_sessions: false });
    expect(r.kind).toBe("ok");
    expect(await landing(other)).toBe("page");
  });

  it("counts wrong current passwords toward the sign-in throttle", async () => {
    await createConsoleUser(server.baseUrl, admin, { email: "guessed@test.local", role: "VIEWER", password: "guessed-password-1" });
    const borrowed = await login(server.baseUrl, "guessed@test.local", "guessed-password-1");
    for (let i = 0; i < 5; i++) {
      expect((await callAction(server, borrowed, CHANGE_PASSWORD, { current_password: `guess-${i}`, new_password: "taken-over-pass-1", end_other_sessions: true })).kind).toBe("validation_error");
    }
    const sixth = await callAction(server, borrowed, CHANGE_PASSWORD, { current_password: "guessed-password-1", new_password: "taken-over-pass-1", end_other_sessions: true });
    expect(sixth.kind).toBe("invalid_state");
    expect(sixth.error?.message).toMatch(/too many/i);
  });

  it("the first admin, bootstrapped at start, changes the password it was given", async () => {
    const own = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    const r = await callAction(server, own, CHANGE_PASSWORD, { current_password: ADMIN_PASSWORD, new_password: "a-new-admin-password", end_other_sessions: false });
    expect(r.kind).toBe("ok");
    expect((await loginFrom(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD, "127.0.0.111")).status).toBe(401);
    expect((await loginFrom(server.baseUrl, ADMIN_EMAIL, "a-new-admin-password", "127.0.0.111")).session).toBe(true);
  });
});

describe("signing out", () => {
  it("'Sign out' ends this session only", async () => {
    await createConsoleUser(server.baseUrl, admin, { email: "one-device@test.local", role: "VIEWER", password: "one-device-pass-1" });
    const laptop = await login(server.baseUrl, "one-device@test.local", "one-device-pass-1");
    const phone = await login(server.baseUrl, "one-device@test.local", "one-device-pass-1");
    expect((await signOut(server.baseUrl, laptop)).status).toBe(200);
    expect(await landing(laptop)).toBe("login:signed_out");
    expect(await landing(phone)).toBe("page");
  });

  it("'Sign out everywhere' ends every session of the user, this one included, audited", async () => {
    const user = await createConsoleUser(server.baseUrl, admin, { email: "all-devices@test.local", role: "VIEWER", password: "all-devices-pass-1" });
    const laptop = await login(server.baseUrl, "all-devices@test.local", "all-devices-pass-1");
    const phone = await login(server.baseUrl, "all-devices@test.local", "all-devices-pass-1");
    expect((await signOut(server.baseUrl, laptop, { everywhere: true })).status).toBe(200);
    expect(await landing(laptop)).toBe("login:signed_out_everywhere");
    expect(await landing(phone)).toBe("login:signed_out_everywhere");
    expect(await audits("user.signed_out_everywhere", user.id)).toEqual([{ actor_id: user.id, details: { reason: "from their own menu" } }]);
    // The session endpoint reads them as signed out; signing in again works.
    expect(await (await fetch(`${server.baseUrl}/api/auth/session`, { headers: phone.headers })).json()).toEqual({});
    expect(await landing(await login(server.baseUrl, "all-devices@test.local", "all-devices-pass-1"))).toBe("page");
  });

  it("the sign-in page says why you are there", async () => {
    const texts: Record<string, RegExp> = {
      signed_out: /You signed out\./,
      signed_out_everywhere: /every session of your account has ended/,
      password_changed: /Your password was changed/,
      ended_by_admin: /An admin changed your account/,
      expired: /Your session expired/,
    };
    for (const [reason, text] of Object.entries(texts)) {
      const html = await (await fetch(`${server.baseUrl}/login?reason=${reason}`)).text();
      expect(html, reason).toMatch(text);
    }
    expect(await (await fetch(`${server.baseUrl}/login?reason=__proto__`)).text()).not.toMatch(/role="status"/);
  });
});
