// Request hygiene and browser hardening over HTTP (SECURITY.md): poisoned JSON-text arguments, NUL
// bytes and out-of-range numbers in addresses, bad UTF-8 in paths, bodies from anonymous callers
// refused before they are read, 401/404/405/415 as problem+json, the origin rules, and the
// security headers with a per-request script nonce.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ADMIN_EMAIL, ADMIN_KEY, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";
import { anonymous, call, login, withKey, type Caller, type Json } from "../helpers/http";
import { callAction } from "../helpers/actions";
import { MAX_BODY_BYTES } from "@/lib/api/gate";

const key = withKey(ADMIN_KEY);
const AGENT = "/api/v1/agents/hygiene";
let server: TestServer;
let admin: Caller;

type Raw = { status: number; headers: http.IncomingHttpHeaders; body: string; json: Json };

/**
 * A request as sent, path untouched (fetch would resolve dot segments). With `declared`, the
 * Content-Length says that many bytes but only `body` is sent: an answer proves the server did
 * not wait to read the rest.
 */
function raw(method: string, path: string, opts: { headers?: Record<string, string>; body?: string | Buffer; declared?: number; chunked?: boolean } = {}): Promise<Raw> {
  const url = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...opts.headers };
    if (opts.declared !== undefined) headers["content-length"] = opts.declared;
    const req = http.request({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (body += d));
      res.on("end", () => {
        let json: Json = null;
        try {
          json = JSON.parse(body);
        } catch {
          json = null;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json });
        req.destroy();
      });
    });
    req.on("error", (e) => ((e as NodeJS.ErrnoException).code === "ECONNRESET" ? undefined : reject(e)));
    if (opts.body !== undefined && (opts.declared !== undefined || opts.chunked)) req.write(opts.body);
    else req.end(opts.body);
  });
}

function expectProblem(r: { status: number; headers: Headers | http.IncomingHttpHeaders; json: Json }, status: number, code: string) {
  expect(r.status).toBe(status);
  const type = r.headers instanceof Headers ? r.headers.get("content-type") : r.headers["content-type"];
  expect(type).toContain("application/problem+json");
  expect(r.json).toMatchObject({ status, code });
  expect(r.json.request_id).toBeTruthy();
}

async function count(table: string): Promise<number> {
  return (await server.sql.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n;
}

const run = (workflowId: string, args: unknown) => ({ workflow_id: workflowId, query: "Refund order A1", steps: [{ tool: "lookup_order", arguments: args }] });
// JSON text (a string argument) whose keys or values spell a NUL or a lone surrogate as escapes.
const NUL_KEY = '{"order\\u0000id": "A1"}';
const SURROGATE_KEY = '{"\\ud800": 1}';
const NUL_VALUE = '{"order_id": "A\\u0000"}';

beforeAll(async () => {
  server = await startTestServer();
  admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  expect((await call(server.baseUrl, key, "PUT", AGENT, { name: "Hygiene", tools: [{ name: "lookup_order" }] })).status).toBe(200);
});
afterAll(async () => {
  await server?.stop();
});

describe(`poisoned JSON-text arguments (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("refuses a run whose JSON-text arguments hold a NUL or a lone surrogate with 400, and the agent still takes runs", async () => {
    const before = await count("workflows");
    for (const [i, args] of [NUL_KEY, SURROGATE_KEY, NUL_VALUE].entries()) {
      const r = await call(server.baseUrl, key, "POST", `${AGENT}/workflows`, run(`poison-${i}`, args));
      expectProblem(r, 400, "validation_error");
      expect(r.json.errors).toEqual([expect.objectContaining({ path: "/steps/0/arguments" })]);
    }
    expect(await count("workflows")).toBe(before);
    const ok = await call(server.baseUrl, key, "POST", `${AGENT}/workflows`, run("after-poison", '{"order_id": "A1"}'));
    expect(ok.status).toBe(201);
  });

  it("in a batch, refuses only the poisoned items and stores the others", async () => {
    const items = [run("b-good-1", { order_id: "A1" }), run("b-bad-1", NUL_KEY), run("b-good-2", '{"order_id": "A2"}'), run("b-bad-2", SURROGATE_KEY)];
    const r = await call(server.baseUrl, key, "POST", `${AGENT}/workflows/batch`, { workflows: items });
    expect(r.status).toBe(207);
    expect(r.json.results.map((x: { status: number }) => x.status)).toEqual([201, 400, 201, 400]);
    expect(r.json.results[1].error).toMatchObject({ code: "validation_error", errors: [expect.objectContaining({ path: "/steps/0/arguments" })] });
    const stored = await server.sql.query(`SELECT workflow_id FROM workflows WHERE workflow_id LIKE 'b-%' ORDER BY workflow_id`);
    expect(stored.rows.map((x) => x.workflow_id)).toEqual(["b-good-1", "b-good-2"]);
  });
});

describe(`NUL bytes, bad UTF-8 and out-of-range numbers in addresses (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("API query values: 400 problem+json naming the parameter", async () => {
    const nul = await call(server.baseUrl, key, "GET", `${AGENT}/classes?user_id=%00`);
    expectProblem(nul, 400, "validation_error");
    expect(nul.json.errors).toEqual([expect.objectContaining({ path: "/user_id" })]);
    expectProblem(await call(server.baseUrl, key, "GET", `${AGENT}/workflows?query=a&user_id=%00`), 400, "validation_error");
    expectProblem(await call(server.baseUrl, key, "GET", `${AGENT}/workflows?query=%ED%A0%80`), 400, "validation_error");
    expectProblem(await call(server.baseUrl, admin, "GET", "/api/console/audit?actor=%00"), 400, "validation_error");
  });

  it("a classes cursor whose count is beyond the integer range is a 400, not a 503", async () => {
    const cursor = Buffer.from(JSON.stringify([2 ** 31 + 5, "h", ""])).toString("base64url");
    const r = await call(server.baseUrl, key, "GET", `${AGENT}/classes?cursor=${cursor}`);
    expectProblem(r, 400, "validation_error");
    expect(r.json.errors).toEqual([expect.objectContaining({ path: "/cursor" })]);
  });

  it("bad UTF-8 in a path segment: 400 problem+json and a log line", async () => {
    for (const path of ["/api/v1/workflows/%FF", "/api/v1/workflows/%ED%A0%80", "/api/v1/workflows/%00", "/api/v1/ledger/procedures/%E2%82"]) {
      const r = await raw("GET", path, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
      expectProblem(r, 400, "validation_error");
      // The server's output reaches the log file a moment after the answer.
      await vi.waitFor(() => expect(server.output()).toContain(`[${r.json.request_id}] refused a malformed request address`));
    }
  });

  it("console pages drop a filter they cannot read instead of failing", async () => {
    const dropped = [
      ["/audit?actor=%00", "/audit"],
      ["/workflows?agent=%00&outcome=success", "/workflows?outcome=success"],
      ["/skills?agent=%00", "/skills"],
      ["/workflows/runs?agent=%00", "/workflows/runs"],
      ["/ledger?tenant=%00", "/ledger"],
      ["/audit?actor=%FF", "/audit"],
    ];
    for (const [path, to] of dropped) {
      const r = await call(server.baseUrl, admin, "GET", path);
      expect(r.status, path).toBe(307);
      expect(r.headers.get("location")).toBe(to);
      expect((await call(server.baseUrl, admin, "GET", to)).status, to).toBe(200);
    }
    for (const path of ["/agents?page=99999999999999999999", "/agents?page=2.5", "/ledger/procedure?tenant=t&agent=a&environment=e&id=x&page=1e300"]) {
      expect((await call(server.baseUrl, admin, "GET", path)).status, path).toBeLessThan(500);
    }
  });
});

describe(`problem+json for everything under /api (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("unknown paths are 404 and missing methods 405, as problems", async () => {
    expectProblem(await call(server.baseUrl, key, "GET", "/api/v1/nope"), 404, "not_found");
    expectProblem(await call(server.baseUrl, key, "POST", "/api/v1/agents/hygiene/nope", {}), 404, "not_found");
    expectProblem(await call(server.baseUrl, admin, "GET", "/api/v2/anything"), 404, "not_found");
    expectProblem(await call(server.baseUrl, admin, "GET", "/api"), 404, "not_found");
    expectProblem(await call(server.baseUrl, anonymous, "GET", "/api"), 401, "unauthorized");
    expectProblem(await call(server.baseUrl, key, "PATCH", AGENT, {}), 405, "method_not_allowed");
    expectProblem(await call(server.baseUrl, key, "PATCH", "/api/v1/workflows/x", {}), 405, "method_not_allowed");
  });

  it("a head Node's parser refuses (over 16 KiB) is a 431 problem, not a bare answer", async () => {
    const r = await raw("GET", `${AGENT}/classes`, { headers: { ...key.headers, "x-padding": "p".repeat(20 * 1024) } });
    expect(r.status).toBe(431);
    expect(r.headers["content-type"]).toContain("application/problem+json");
    expect(r.json).toMatchObject({ status: 431, code: "headers_too_large" });
    // The server goes on answering.
    expect((await call(server.baseUrl, key, "GET", `${AGENT}/classes`)).status).not.toBe(431);
  });

  it("dot segments are refused as problems, not resolved or redirected", async () => {
    for (const path of [`${AGENT}/..`, "/api/v1/..", "/api/v1/agents/../agents/hygiene", "/api/v1/agents/%2e%2e/hygiene", "/api/console/../v1/agents/hygiene"]) {
      const r = await raw("GET", path, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
      expectProblem(r, 400, "validation_error");
    }
  });

  it("anonymous calls to console JSON routes and actions are 401 problems; page views still go to sign in", async () => {
    expectProblem(await call(server.baseUrl, anonymous, "GET", "/persona-evolution/state?user_id=u1"), 401, "unauthorized");
    expectProblem(await call(server.baseUrl, anonymous, "POST", "/persona-evolution/action", { action: "approve" }), 401, "unauthorized");
    const action = await callAction(server, anonymous, "lib/actions/api-keys.ts#createApiKey", { name: "anon", scopes: ["ingest"] });
    expect(action.httpStatus).toBe(401);
    const page = await call(server.baseUrl, anonymous, "GET", "/agents");
    expect(page.status).toBe(307);
    expect(page.headers.get("location")).toContain("/login?next=%2Fagents");
  });

  it("write routes take JSON only as application/json (415 otherwise), and nothing is written", async () => {
    const before = await count("workflows");
    const body = JSON.stringify(run("text-plain", { order_id: "A1" }));
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      const r = await call(server.baseUrl, key, "POST", `${AGENT}/workflows`, body, { "content-type": type });
      expectProblem(r, 415, "unsupported_media_type");
    }
    expect(await count("workflows")).toBe(before);
    expect((await call(server.baseUrl, key, "POST", `${AGENT}/workflows`, body, { "content-type": "application/json; charset=utf-8" })).status).toBe(201);
  });
});

describe(`bodies from callers who are not signed in (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("are refused before they are read: 401 below the largest limit, 413 above it", async () => {
    const kib = Buffer.alloc(1024, "x");
    for (const path of ["/agents", "/persona-evolution/action", "/api/console/users", "/settings/users"]) {
      expectProblem(await raw("POST", path, { headers: { "content-type": "application/json" }, body: kib, declared: 1024 * 1024 }), 401, "unauthorized");
    }
    expectProblem(await raw("POST", "/agents", { body: kib, declared: MAX_BODY_BYTES + 1 }), 413, "payload_too_large");
    expectProblem(await raw("POST", "/agents", { body: kib, chunked: true }), 401, "unauthorized");
    // A session that does not decode is no session; neither is an API key outside the agent API.
    expectProblem(await raw("POST", "/agents", { headers: { cookie: "next-auth.session-token=forged" }, body: kib, declared: 1024 * 1024 }), 401, "unauthorized");
    expectProblem(await raw("POST", "/agents", { headers: { authorization: `Bearer ${ADMIN_KEY}` }, body: kib, declared: 1024 * 1024 }), 401, "unauthorized");
    // Sign-in forms are small: more than 64 KiB, or an undeclared length, is refused unread.
    expectProblem(await raw("POST", "/api/auth/callback/credentials", { body: kib, declared: 1024 * 1024 }), 413, "payload_too_large");
    expectProblem(await raw("POST", "/api/auth/callback/credentials", { body: kib, chunked: true }), 413, "payload_too_large");
  });

  it("a signed-in caller is held to the largest limit too", async () => {
    const r = await raw("POST", "/agents", { headers: { cookie: admin.headers.cookie }, body: Buffer.alloc(1024, "x"), declared: MAX_BODY_BYTES + 1 });
    expectProblem(r, 413, "payload_too_large");
  });
});

describe(`origin rules for browser writes (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("a session's action or write with neither Origin nor Referer is refused; agents with a key need neither", async () => {
    const { origin: _drop, ...noSource } = admin.headers;
    const before = await count("api_keys");
    const r = await callAction(server, { headers: noSource }, "lib/actions/api-keys.ts#createApiKey", { name: "no-origin", scopes: ["ingest"] });
    expect(r.kind).toBe("forbidden");
    expect(r.error?.message).toContain("Origin or Referer");
    expect(await count("api_keys")).toBe(before);
    const referer = await callAction(server, { headers: { ...noSource, referer: `${server.baseUrl}/settings/api-keys` } }, "lib/actions/api-keys.ts#createApiKey", { name: "by-referer", scopes: ["ingest"] });
    expect(referer.kind).toBe("ok");
    const signIn = await raw("POST", "/api/auth/callback/credentials", { headers: { "content-type": "application/x-www-form-urlencoded" }, body: "email=a%40b.c&password=x" });
    expectProblem(signIn, 403, "forbidden");
    expect((await call(server.baseUrl, key, "POST", `${AGENT}/workflows`, run("keyed-no-origin", { order_id: "A1" }))).status).toBe(201);
  });

  it("X-Forwarded-Host does not vouch for a foreign Origin unless PROCTOR_TRUST_PROXY is set", async () => {
    const csrf = await fetch(`${server.baseUrl}/api/auth/csrf`);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const cookie = csrf.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const form = new URLSearchParams({ csrfToken, email: ADMIN_EMAIL, password: ADMIN_PASSWORD, json: "true" }).toString();
    const r = await raw("POST", "/api/auth/callback/credentials", {
      headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin: "http://evil.test", "x-forwarded-host": "evil.test" },
      body: form,
    });
    expectProblem(r, 403, "forbidden");
    expect(r.headers["set-cookie"] ?? []).not.toContainEqual(expect.stringContaining("session-token"));
  });
});

describe(`browser hardening headers (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("pages carry a nonce-based CSP without unsafe-inline scripts, and every script carries the nonce", async () => {
    const nonces: string[] = [];
    for (const [who, path] of [[anonymous, "/login"], [admin, "/agents"]] as const) {
      const r = await call(server.baseUrl, who, "GET", path);
      expect(r.status).toBe(200);
      const csp = r.headers.get("content-security-policy")!;
      const script = csp.split(";").map((d) => d.trim()).find((d) => d.startsWith("script-src"))!;
      expect(script).not.toContain("unsafe-inline");
      const nonce = script.match(/'nonce-([^']+)'/)![1];
      nonces.push(nonce);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      const tags = [...r.text.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
      expect(tags.length).toBeGreaterThan(0);
      for (const tag of tags) expect(tag, tag).toContain(`nonce="${nonce}"`);
      expect(r.headers.get("x-content-type-options")).toBe("nosniff");
      expect(r.headers.get("referrer-policy")).toBe("same-origin");
      expect(r.headers.get("x-frame-options")).toBe("DENY");
      // Served over plain http here: no HSTS (lib/api/gate.ts sends it over https).
      expect(r.headers.get("strict-transport-security")).toBeNull();
    }
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  it("API answers forbid framing and sniffing too", async () => {
    const r = await call(server.baseUrl, key, "GET", AGENT);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
  });
});
