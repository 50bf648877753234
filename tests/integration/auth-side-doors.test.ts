// The sign-in guards have no side door, and malformed auth and action requests are refused with
// a 4xx: the throttle and the duplicate-field guard cover every path next-auth's real route table
// reads as a credentials sign-in; an ended session reads as signed out (the session endpoint,
// the body limit); a database error's text never reaches an answer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";
import { login, type Caller } from "../helpers/http";
import { createConsoleUser, signInWithForm, signOut } from "../helpers/console";
import { actionTarget, callAction } from "../helpers/actions";

const CREATE_KEY = "lib/actions/api-keys.ts#createApiKey";

let server: TestServer;
let admin: Caller;

beforeAll(async () => {
  server = await startTestServer();
  admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
});
afterAll(async () => {
  await server?.stop();
});

const failures = async () => (await server.sql.query(`SELECT count(*)::int AS n FROM login_failures`)).rows[0].n as number;
const keys = async (name: string) => (await server.sql.query(`SELECT count(*)::int AS n FROM api_keys WHERE name = $1`, [name])).rows[0].n as number;

describe("the login throttle covers every credentials path", () => {
  // next-auth takes the action from the first segment and the provider from the second, and ignores the rest.
  const paths = ["/api/auth/callback/credentials/anything", "/api/auth/callback/credentials/a/b/c"];

  it.each(paths.map((p, i) => [p, i]))("throttles %s like the exact path, also when the account is locked there", async (path, i) => {
    const email = `side-door-${i}@test.local`;
    await createConsoleUser(server.baseUrl, admin, { email, role: "VIEWER", password: "side-door-pass-1" });
    const from = `127.0.0.${90 + Number(i)}`;
    const before = await failures();
    for (let n = 0; n < 5; n++) expect((await signInWithForm(server.baseUrl, [["email", email], ["password", `wrong-${n}`]], from, path)).status).toBe(401);
    expect(await failures()).toBe(before + 5);
    const sixth = await signInWithForm(server.baseUrl, [["email", email], ["password", "side-door-pass-1"]], from, path);
    expect(sixth.status).toBe(429);
    expect(sixth.session).toBe(false);
    // Locked on the exact path: the suffixed one is locked too.
    const exact = await signInWithForm(server.baseUrl, [["email", email], ["password", "side-door-pass-1"]], from);
    expect(exact.status).toBe(429);
  });

  it("refuses a form with two email fields on a suffixed path", async () => {
    const r = await signInWithForm(server.baseUrl, [["email", "decoy@x.test"], ["email", ADMIN_EMAIL], ["password", ADMIN_PASSWORD]], "127.0.0.95", "/api/auth/callback/credentials/x");
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toMatchObject({ status: 400, code: "validation_error" });
    expect(r.session).toBe(false);
  });

  it("refuses a credentials sign-in by GET on any path (next-auth signs in only on POST)", async () => {
    for (const path of ["/api/auth/callback/credentials", "/api/auth/callback/credentials/x"]) {
      const r = await fetch(`${server.baseUrl}${path}?email=${encodeURIComponent(ADMIN_EMAIL)}&password=${ADMIN_PASSWORD}`, { redirect: "manual" });
      expect(r.status, path).toBe(405);
      expect(r.headers.get("content-type")).toContain("application/problem+json");
      expect(r.headers.getSetCookie().some((c) => c.includes("session-token"))).toBe(false);
    }
  });
});

describe("an ended session reads as signed out", () => {
  it("the session endpoint answers {} and clears the cookie instead of refreshing it", async () => {
    await createConsoleUser(server.baseUrl, admin, { email: "ended@test.local", role: "ADMIN", password: "ended-password-1" });
    const session = await login(server.baseUrl, "ended@test.local", "ended-password-1");
    const live = await fetch(`${server.baseUrl}/api/auth/session`, { headers: session.headers });
    expect((await live.json()).user.email).toBe("ended@test.local");
    const copy: Caller = { headers: { ...session.headers } };
    expect((await signOut(server.baseUrl, session)).status).toBe(200);

    const ended = await fetch(`${server.baseUrl}/api/auth/session`, { headers: copy.headers });
    expect(ended.status).toBe(200);
    expect(await ended.json()).toEqual({});
    const cookies = ended.headers.getSetCookie().filter((c) => c.includes("next-auth.session-token="));
    expect(cookies.length).toBeGreaterThan(0);
    for (const c of cookies) expect(c).toMatch(/next-auth\.session-token=;|Max-Age=0|Expires=Thu, 01 Jan 1970/i);
  });

  it("gets the anonymous body limit: a large body is refused before it is read", async () => {
    await createConsoleUser(server.baseUrl, admin, { email: "bodies@test.local", role: "ADMIN", password: "bodies-password-1" });
    const session = await login(server.baseUrl, "bodies@test.local", "bodies-password-1");
    const copy: Caller = { headers: { ...session.headers } };
    const body = "x".repeat(512 * 1024);
    const post = (caller: Caller) => fetch(`${server.baseUrl}/agents`, { method: "POST", redirect: "manual", headers: { ...caller.headers, "content-type": "text/plain" }, body });
    expect((await post(session)).status).not.toBe(401);
    expect((await signOut(server.baseUrl, session)).status).toBe(200);
    const ended = await post(copy);
    expect(ended.status).toBe(401);
    expect(await ended.json()).toMatchObject({ code: "unauthorized" });
  });
});

describe("database errors never reach an answer", () => {
  it("a NUL in the email is refused as invalid, without the driver's text", async () => {
    for (const form of [new URLSearchParams({ email: "a\u0000b@test.local", password: "whatever-1" }), JSON.stringify({ email: "a\u0000b@test.local", password: "x" })]) {
      const json = typeof form === "string";
      const csrf = await fetch(`${server.baseUrl}/api/auth/csrf`);
      const { csrfToken } = (await csrf.json()) as { csrfToken: string };
      const cookie = csrf.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
      const body = json ? JSON.stringify({ ...JSON.parse(form), csrfToken, json: "true" }) : `${form}&csrfToken=${encodeURIComponent(csrfToken)}&json=true`;
      const r = await fetch(`${server.baseUrl}/api/auth/callback/credentials`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": json ? "application/json" : "application/x-www-form-urlencoded", cookie, origin: server.baseUrl },
        body,
      });
      const text = await r.text();
      expect(r.status).toBe(400);
      expect(text).not.toMatch(/prisma|invocation|22021|invalid byte sequence/i);
    }
  });
});

describe("malformed auth and action requests get a 4xx, never a 5xx", () => {
  it("sign-out with a body that is not a form", async () => {
    for (const [type, body] of [["application/json", "{not json"], ["application/json", "[1,2]"], ["text/plain", "hello"]]) {
      const r = await fetch(`${server.baseUrl}/api/auth/signout`, { method: "POST", redirect: "manual", headers: { ...admin.headers, "content-type": type }, body });
      expect(r.status, `${type} ${body}`).toBe(400);
      expect(r.headers.get("content-type")).toContain("application/problem+json");
    }
  });

  it("a callbackUrl that does not parse sends the caller to this site", async () => {
    const r = await signInWithForm(server.baseUrl, [["email", ADMIN_EMAIL], ["password", ADMIN_PASSWORD], ["callbackUrl", "http://["]], "127.0.0.96");
    expect(r.status).toBe(200);
    expect(r.session).toBe(true);
    expect(new URL(JSON.parse(r.body).url).origin).toBe(new URL(server.baseUrl).origin);
    const page = await fetch(`${server.baseUrl}/api/auth/signin?callbackUrl=${encodeURIComponent("http://[")}`, { redirect: "manual" });
    expect(page.status).toBeLessThan(500);
  });

  it("a server action from a foreign, null or malformed Origin: 403 problem+json, nothing runs", async () => {
    const { id, page } = actionTarget(CREATE_KEY);
    for (const origin of ["http://evil.example", "null", "http://[", "not a url"]) {
      const r = await fetch(server.baseUrl + page, {
        method: "POST",
        headers: { ...admin.headers, origin, accept: "text/x-component", "content-type": "text/plain;charset=UTF-8", "next-action": id },
        body: JSON.stringify([{ name: "from-afar", scopes: ["ingest"] }]),
      });
      expect(r.status, origin).toBe(403);
      expect(await r.json()).toMatchObject({ status: 403, code: "forbidden" });
    }
    expect(await keys("from-afar")).toBe(0);
  });

  it("a server action whose arguments are not a valid encoding: 400 problem+json, nothing runs", async () => {
    const good = await callAction(server, admin, CREATE_KEY, { name: "encoded", scopes: ["ingest"] });
    expect(good.kind).toBe("ok");
    const { id, page } = actionTarget(CREATE_KEY);
    for (const [type, body] of [
      ["text/plain;charset=UTF-8", "[{\"name\":"],
      ["text/plain;charset=UTF-8", Buffer.from([0x5b, 0xff, 0xfe, 0x5d])],
      ["multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data; name=\"0\"\r\n\r\n[{\"name\":"],
    ] as const) {
      const r = await fetch(server.baseUrl + page, {
        method: "POST",
        headers: { ...admin.headers, accept: "text/x-component", "content-type": type, "next-action": id },
        body,
      });
      expect(r.status, String(body)).toBe(400);
      expect(r.headers.get("content-type")).toContain("application/problem+json");
    }
    expect(await keys("encoded")).toBe(1);
  });
});
