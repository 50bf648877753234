// Who may call which agent-API route: anonymous callers, a viewer and an admin session, an
// ingest-only key and an admin key, for every route this API serves.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_KEY, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";
import { anonymous, call, login, withKey, type Caller } from "../helpers/http";
import { callAction } from "../helpers/actions";
import { hashPassword } from "@/lib/auth/password";
import { hashApiKey } from "@/lib/auth/api-keys";

const INGEST_KEY = "pk_ingestonly_" + "b".repeat(32);
const VIEWER_EMAIL = "viewer@test.local";
const VIEWER_PASSWORD = "viewer-password-123";

let server: TestServer;
let callers: Record<"anonymous" | "viewer" | "adminSession" | "ingestKey" | "adminKey", Caller>;
let workflowId = "";
let n = 0;

type Kind = "public" | "read" | "ingest" | "admin";
type Route = { kind: Kind; method: string; path: () => string; body?: () => unknown; ok: number };

const run = () => ({ workflow_id: `acc-${n++}`, query: "Refund order A1", steps: [{ tool: "lookup_order", arguments: { order_id: "A1" } }] });
const routes: Route[] = [
  { kind: "public", method: "GET", path: () => "/api/health", ok: 200 },
  { kind: "public", method: "GET", path: () => "/api/v1/openapi.json", ok: 200 },
  { kind: "read", method: "GET", path: () => "/api/v1/agents/acl", ok: 200 },
  { kind: "read", method: "GET", path: () => "/api/v1/agents/acl/workflows?query=refund", ok: 200 },
  { kind: "read", method: "GET", path: () => `/api/v1/workflows/${workflowId}`, ok: 200 },
  { kind: "read", method: "GET", path: () => "/api/v1/agents/acl/classes", ok: 200 },
  { kind: "ingest", method: "POST", path: () => "/api/v1/agents/acl/workflows", body: run, ok: 201 },
  { kind: "ingest", method: "POST", path: () => "/api/v1/agents/acl/workflows/batch", body: () => ({ workflows: [run()] }), ok: 207 },
  {
    kind: "ingest",
    method: "POST",
    path: () => "/api/v1/agents/acl/conversations",
    body: () => ({ thread_id: "t", user_id: "u", messages: [{ role: "user", text: `hi ${n++}`, timestamp: "2026-11-30T10:00:00Z" }] }),
    ok: 201,
  },
  { kind: "admin", method: "PUT", path: () => "/api/v1/agents/acl", body: () => ({ name: "ACL agent" }), ok: 200 },
];

// Expected status per caller and route kind; `ok` stands for the route's success status.
const expected: Record<keyof typeof callers, Record<Kind, number | "ok">> = {
  anonymous: { public: "ok", read: 401, ingest: 401, admin: 401 },
  viewer: { public: "ok", read: "ok", ingest: 403, admin: 403 },
  adminSession: { public: "ok", read: "ok", ingest: "ok", admin: "ok" },
  ingestKey: { public: "ok", read: "ok", ingest: "ok", admin: 403 },
  adminKey: { public: "ok", read: "ok", ingest: "ok", admin: "ok" },
};

beforeAll(async () => {
  server = await startTestServer();
  await server.sql.query("INSERT INTO users (id, email, password_hash, role) VALUES ('viewer1', $1, $2, 'VIEWER')", [VIEWER_EMAIL, await hashPassword(VIEWER_PASSWORD)]);
  await server.sql.query("INSERT INTO api_keys (id, name, prefix, hash, scopes) VALUES ('key-ingest', 'ingest only', 'ingestonly', $1, ARRAY['ingest'])", [hashApiKey(INGEST_KEY)]);
  const viewer = await login(server.baseUrl, VIEWER_EMAIL, VIEWER_PASSWORD);
  const adminSession = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  callers = { anonymous, viewer, adminSession, ingestKey: withKey(INGEST_KEY), adminKey: withKey(ADMIN_KEY) };
  const admin = callers.adminKey;
  expect((await call(server.baseUrl, admin, "PUT", "/api/v1/agents/acl", { name: "ACL agent" })).status).toBe(200);
  workflowId = (await call(server.baseUrl, admin, "POST", "/api/v1/agents/acl/workflows", run())).json.id;
});
afterAll(async () => {
  await server?.stop();
});

describe(`agent API access matrix (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("the sessions are real", async () => {
    expect((await call(server.baseUrl, callers.viewer, "GET", "/api/auth/session")).json.user.role).toBe("VIEWER");
    expect((await call(server.baseUrl, callers.adminSession, "GET", "/api/auth/session")).json.user.role).toBe("ADMIN");
  });

  for (const who of Object.keys(expected) as (keyof typeof callers)[]) {
    it(`${who}`, async () => {
      for (const r of routes) {
        const want = expected[who][r.kind];
        const status = want === "ok" ? r.ok : want;
        const before = (await server.sql.query("SELECT (SELECT count(*) FROM workflows) + (SELECT count(*) FROM conversation_messages) + (SELECT count(*) FROM audit_events) AS n")).rows[0].n;
        const res = await call(server.baseUrl, callers[who], r.method, r.path(), r.body?.());
        expect(res.status, `${who} ${r.method} ${r.path()}: ${res.text.slice(0, 200)}`).toBe(status);
        if (status >= 400) {
          expect(res.headers.get("content-type")).toContain("application/problem+json");
          expect(res.json.code).toBe(status === 401 ? "unauthorized" : "forbidden");
          const after = (await server.sql.query("SELECT (SELECT count(*) FROM workflows) + (SELECT count(*) FROM conversation_messages) + (SELECT count(*) FROM audit_events) AS n")).rows[0].n;
          expect(after, `${who} ${r.method} ${r.path()} wrote something`).toBe(before);
        }
      }
    });
  }

  it("an unknown or malformed key is refused even where a session would do", async () => {
    for (const key of ["pk_unknown123_" + "c".repeat(32), "nonsense"]) {
      const r = await call(server.baseUrl, withKey(key), "GET", "/api/v1/agents/acl");
      expect(r.status).toBe(401);
      expect(r.json.code).toBe("unauthorized");
    }
  });

  it("the benchmarks' floor route does not exist unless the server was started for benchmarking", async () => {
    const r = await call(server.baseUrl, withKey(ADMIN_KEY), "POST", "/api/v1/bench/floor", { any: "body" });
    expect(r.status).toBe(404);
    expect(r.json.code).toBe("not_found");
    // Without a key, a body is refused unread (lib/api/gate.ts) here as on any unknown path: nothing revealed.
    for (const path of ["/api/v1/bench/floor", "/api/v1/no-such-route"]) {
      const anon = await call(server.baseUrl, anonymous, "POST", path, { any: "body" });
      expect([anon.status, anon.json.code]).toEqual([401, "unauthorized"]);
    }
  });

  it("a key records its last use, and once revoked is refused at once; a wrong secret for a known prefix too", async () => {
    const made = await callAction(server, callers.adminSession, "lib/actions/api-keys.ts#createApiKey", { name: "short-lived", scopes: ["ingest"] });
    expect(made.kind).toBe("ok");
    const key: string = made.data.secret;
    const lastUsed = () => server.sql.query("SELECT last_used_at FROM api_keys WHERE id = $1", [made.data.api_key.id]).then((r) => r.rows[0].last_used_at);
    expect(await lastUsed()).toBeNull();
    expect((await call(server.baseUrl, withKey(key), "GET", "/api/v1/agents/acl")).status).toBe(200);
    expect(await lastUsed()).toBeInstanceOf(Date);
    const forged = key.slice(0, key.lastIndexOf("_") + 1) + "x".repeat(32);
    expect((await call(server.baseUrl, withKey(forged), "GET", "/api/v1/agents/acl")).status).toBe(401);
    const revoked = await callAction(server, callers.adminSession, "lib/actions/api-keys.ts#revokeApiKey", { id: made.data.api_key.id, reason: "rotated" });
    expect(revoked.kind).toBe("ok");
    expect((await call(server.baseUrl, withKey(key), "GET", "/api/v1/agents/acl")).status).toBe(401);
  });

  it("audits an agent replacement with the key or user who made it", async () => {
    const rows = await server.sql.query("SELECT actor_type, actor_label FROM audit_events WHERE target_type = 'agent' AND target_id = 'acl' ORDER BY id");
    expect(rows.rows.map((x) => x.actor_type)).toEqual(["api_key", "user", "api_key"]);
    expect(rows.rows[1].actor_label).toBe(ADMIN_EMAIL);
  });
});
