// The access matrix for console pages and console routes: every page and route against
// {anonymous, viewer, admin, ingest key, admin key}, compared with the expected status.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_KEY, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";
import { anonymous, call, login, withKey, type Caller } from "../helpers/http";
import { createConsoleUser } from "../helpers/console";
import { callAction, type ActionCall } from "../helpers/actions";

type Who = "anonymous" | "viewer" | "admin" | "ingestKey" | "adminKey";
const WHO: Who[] = ["anonymous", "viewer", "admin", "ingestKey", "adminKey"];

let server: TestServer;
let callers: Record<Who, Caller>;
let agentId: string;
let runId: string;
let viewerId: string;
const spareKeyIds: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  const admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  const viewer = await createConsoleUser(server.baseUrl, admin, { email: "viewer@test.local", role: "VIEWER", password: "viewer-password-1" });
  viewerId = viewer.id;
  const ingest = await callAction(server, admin, "lib/actions/api-keys.ts#createApiKey", { name: "ingest only", scopes: ["ingest"] });
  expect(ingest.kind).toBe("ok");
  callers = {
    anonymous,
    viewer: await login(server.baseUrl, "viewer@test.local", "viewer-password-1"),
    admin,
    ingestKey: withKey(ingest.data.secret),
    adminKey: withKey(ADMIN_KEY),
  };
  agentId = "access-bot";
  const put = await call(server.baseUrl, callers.adminKey, "PUT", `/api/v1/agents/${agentId}`, {
    name: "Access bot",
    tools: [{ name: "lookup_order", description: "Find an order" }],
  });
  expect(put.status).toBe(200);
  const run = await call(server.baseUrl, callers.ingestKey, "POST", `/api/v1/agents/${agentId}/workflows`, {
    workflow_id: "access-run-1",
    query: "Where is order A1?",
    steps: [{ tool: "lookup_order", arguments: { order_id: "A1" }, result: { status: "shipped" } }],
    outcome: "success",
  });
  expect(run.status).toBe(201);
  runId = run.json.id;
  // Keys the revoke column can revoke, one per caller that is allowed to.
  for (let i = 0; i < WHO.length; i++) {
    const k = await callAction(server, admin, "lib/actions/api-keys.ts#createApiKey", { name: `spare ${i}`, scopes: ["ingest"] });
    spareKeyIds.push(k.data.api_key.id);
  }
});
afterAll(async () => {
  await server?.stop();
});

/** Text that only admin pages render: an audit action, the key and user forms. */
const ADMIN_ONLY_MARKERS = ["user.bootstrapped", "Create key", "Create user"];
const PAGE_FOR_ALL = { anonymous: 307, viewer: 200, admin: 200, ingestKey: 307, adminKey: 307 };
const PAGE_FOR_ADMINS = { anonymous: 307, viewer: 403, admin: 200, ingestKey: 307, adminKey: 307 };
const ROUTE_FOR_ADMINS = (ok: number) => ({ anonymous: 401, viewer: 403, admin: ok, ingestKey: 401, adminKey: 401 });

describe(`console access matrix (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("pages: anonymous → login with next, viewers kept out of admin sections, keys never open pages", async () => {
    const pages: [string, Record<Who, number>][] = [
      ["/agents", PAGE_FOR_ALL],
      [`/agents/${agentId}`, PAGE_FOR_ALL],
      ["/workflows", PAGE_FOR_ALL],
      ["/workflows?outcome=success&page=1", PAGE_FOR_ALL],
      [`/workflows/runs/${runId}`, PAGE_FOR_ALL],
      ["/audit", PAGE_FOR_ADMINS],
      ["/audit?action=user.&page=1", PAGE_FOR_ADMINS],
      ["/settings", { ...PAGE_FOR_ADMINS, admin: 307 }],
      ["/settings/api-keys", PAGE_FOR_ADMINS],
      ["/settings/users", PAGE_FOR_ADMINS],
    ];
    const actual: Record<string, Record<Who, number>> = {};
    const expected: Record<string, Record<Who, number>> = {};
    for (const [path, want] of pages) {
      expected[path] = want;
      actual[path] = {} as Record<Who, number>;
      for (const who of WHO) {
        const r = await call(server.baseUrl, callers[who], "GET", path);
        actual[path][who] = r.status;
        if (r.status === 307 && who !== "admin") {
          const location = new URL(r.headers.get("location")!, server.baseUrl);
          expect(location.pathname).toBe("/login");
          expect(location.searchParams.get("next")).toBe(path);
        }
        // A refused page carries none of the admin-only content, not even in the RSC payload.
        const leaked = ADMIN_ONLY_MARKERS.filter((m) => r.text.includes(m));
        if (r.status !== 200) expect(leaked, `${who} ${path}`).toEqual([]);
        if (r.status === 403) expect(r.text).toContain('name="robots" content="noindex"');
      }
    }
    expect(actual).toEqual(expected);
  });

  it("viewers see agents and runs; admins see the admin pages", async () => {
    const agents = await call(server.baseUrl, callers.viewer, "GET", "/agents");
    expect(agents.text).toContain("Access bot");
    expect(agents.text).toContain("lookup_order");
    const run = await call(server.baseUrl, callers.viewer, "GET", `/workflows/runs/${runId}`);
    expect(run.text).toContain("access-run-1");
    expect(run.text).toContain("shipped");
    expect((await call(server.baseUrl, callers.admin, "GET", "/audit")).text).toContain("user.bootstrapped");
    expect((await call(server.baseUrl, callers.admin, "GET", "/settings/api-keys")).text).toContain("Create key");
    expect((await call(server.baseUrl, callers.admin, "GET", "/settings/users")).text).toContain("Create user");
    const settings = await call(server.baseUrl, callers.admin, "GET", "/settings");
    expect(settings.headers.get("location")).toContain("/settings/api-keys");
  });

  it("unknown agents and runs are 404 pages, not errors", async () => {
    expect((await call(server.baseUrl, callers.viewer, "GET", "/agents/no-such-agent")).status).toBe(404);
    expect((await call(server.baseUrl, callers.viewer, "GET", "/workflows/runs/no-such-run")).status).toBe(404);
  });

  it("console reads: session-only, admin-only, problem+json otherwise", async () => {
    const routes = ["/api/console/api-keys", "/api/console/users", "/api/console/audit", "/api/console/audit?action=api_key.&page_size=5"];
    const actual: Record<string, Record<Who, number>> = {};
    const expected: Record<string, Record<Who, number>> = {};
    for (const path of routes) {
      expected[path] = ROUTE_FOR_ADMINS(200);
      actual[path] = {} as Record<Who, number>;
      for (const who of WHO) {
        const r = await call(server.baseUrl, callers[who], "GET", path);
        actual[path][who] = r.status;
        if (r.status >= 400) {
          expect(r.headers.get("content-type")).toContain("application/problem+json");
          expect(r.json.status).toBe(r.status);
          expect(r.json.code).toBe(r.status === 401 ? "unauthorized" : "forbidden");
        }
      }
    }
    expect(actual).toEqual(expected);
  });

  it("console actions: admins only; anyone else is sent to sign in or refused, and nothing changes", async () => {
    let spare = 0;
    const actions: [string, (who: Who) => unknown][] = [
      ["lib/actions/api-keys.ts#createApiKey", () => ({ name: "matrix", scopes: ["ingest"] })],
      ["lib/actions/api-keys.ts#revokeApiKey", () => ({ id: spareKeyIds[spare++], reason: "matrix" })],
      ["lib/actions/users.ts#createUser", (who) => ({ email: `matrix-${who}@test.local`, role: "VIEWER" })],
      ["lib/actions/users.ts#updateUser", () => ({ id: viewerId, role: "VIEWER", reason: "matrix" })],
    ];
    // Without a session the proxy sends the caller to sign in; a viewer's session is refused.
    const ACTION_FOR_ADMINS = { anonymous: "unauthorized", viewer: "forbidden", admin: "ok", ingestKey: "unauthorized", adminKey: "unauthorized" };
    const actual: Record<string, Record<Who, ActionCall["kind"]>> = {};
    const expected: Record<string, Record<Who, string>> = {};
    for (const [name, input] of actions) {
      expected[name] = ACTION_FOR_ADMINS;
      actual[name] = {} as Record<Who, ActionCall["kind"]>;
      for (const who of WHO) actual[name][who] = (await callAction(server, callers[who], name, input(who))).kind;
    }
    expect(actual).toEqual(expected);

    // Only the admin's attempts changed anything.
    const keys = await server.sql.query(`SELECT count(*)::int AS n FROM api_keys WHERE name = 'matrix'`);
    expect(keys.rows[0].n).toBe(1);
    const revoked = await server.sql.query(`SELECT id FROM api_keys WHERE revoked_at IS NOT NULL`);
    expect(revoked.rows.map((r) => r.id)).toEqual([spareKeyIds[2]]);
    const users = await server.sql.query(`SELECT email FROM users WHERE email LIKE 'matrix-%'`);
    expect(users.rows.map((r) => r.email)).toEqual(["matrix-admin@test.local"]);
  });

  it("the login page is public; a signed-in user is sent on to next", async () => {
    expect((await call(server.baseUrl, anonymous, "GET", "/login?next=/workflows")).status).toBe(200);
    const r = await call(server.baseUrl, callers.viewer, "GET", "/login?next=/workflows");
    expect(r.status).toBe(307);
    expect(r.headers.get("location")).toMatch(/\/workflows$/);
    // Only same-site paths are honored.
    const evil = await call(server.baseUrl, callers.viewer, "GET", "/login?next=//evil.example/x");
    expect(new URL(evil.headers.get("location")!, server.baseUrl).host).toBe(new URL(server.baseUrl).host);
  });
});
