// Hostile and malformed input to the agent API: every case is a 4xx problem+json with a stable
// code, and nothing is written.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_KEY, startTestServer, type TestServer } from "../helpers/server";
import { call, withKey } from "../helpers/http";

const admin = withKey(ADMIN_KEY);
let server: TestServer;

async function counts() {
  const r = await server.sql.query(`SELECT
    (SELECT count(*)::int FROM workflows) AS workflows,
    (SELECT count(*)::int FROM trajectory_classes) AS classes,
    (SELECT count(*)::int FROM agents) AS agents,
    (SELECT count(*)::int FROM conversation_messages) AS messages,
    (SELECT count(*)::int FROM audit_events) AS audit`);
  return r.rows[0];
}

/** Sends `body` (raw text when a string), expects `status` with problem `code`, and no write. */
async function refused(method: string, path: string, body: unknown, status: number, code: string) {
  const before = await counts();
  const r = await call(server.baseUrl, admin, method, path, body);
  expect(r.status, r.text.slice(0, 300)).toBe(status);
  expect(r.headers.get("content-type")).toContain("application/problem+json");
  expect(r.json.code).toBe(code);
  expect(r.json.request_id).toBeTruthy();
  expect(await counts()).toEqual(before);
  return r.json;
}

const run = (extra: object = {}) => ({ query: "Refund order A1", steps: [{ tool: "lookup_order", arguments: { order_id: "A1" } }], ...extra });
const W = "/api/v1/agents/target/workflows";

beforeAll(async () => {
  server = await startTestServer();
  const r = await call(server.baseUrl, admin, "PUT", "/api/v1/agents/target", { name: "Target" });
  expect(r.status).toBe(200);
});
afterAll(async () => {
  await server?.stop();
});

describe(`bad input (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("malformed JSON", async () => {
    await refused("POST", W, '{"query": "x", "steps": [', 400, "validation_error");
    await refused("POST", `${W}/batch`, "not json at all", 400, "validation_error");
    await refused("PUT", "/api/v1/agents/newbie", "{name: 'x'}", 400, "validation_error");
    await refused("POST", "/api/v1/agents/target/conversations", "[1,", 400, "validation_error");
  });

  it("wrong types and missing required fields", async () => {
    const p = await refused("POST", W, { query: 42, steps: "lookup" }, 400, "validation_error");
    expect(p.errors.map((e: { path: string }) => e.path).sort()).toEqual(["/query", "/steps"]);
    await refused("POST", W, { steps: [] }, 400, "validation_error");
    await refused("POST", W, run({ steps: [{ arguments: {} }] }), 400, "validation_error");
    await refused("POST", W, run({ outcome: "maybe" }), 400, "validation_error");
    await refused("POST", W, run({ created_at: "yesterday" }), 400, "validation_error");
    await refused("POST", W, run({ execution_error: 5 }), 400, "validation_error");
    await refused("POST", W, [run()], 400, "validation_error");
    await refused("POST", `${W}/batch`, { workflows: [] }, 400, "validation_error");
    await refused("POST", `${W}/batch`, { workflows: Array.from({ length: 1001 }, () => ({ query: "x", steps: [] })) }, 400, "validation_error");
    await refused("PUT", "/api/v1/agents/newbie", { name: 5 }, 400, "validation_error");
    await refused("PUT", "/api/v1/agents/newbie", { name: "x", tools: [{ description: "no name" }] }, 400, "validation_error");
    await refused("POST", "/api/v1/agents/target/conversations", { thread_id: "t", user_id: "u", messages: [{ role: "system", text: "x", timestamp: "2026-11-30T10:00:00Z" }] }, 400, "validation_error");
  });

  it("a batch item of the wrong type fails alone, without failing the batch", async () => {
    const r = await call(server.baseUrl, admin, "POST", `${W}/batch`, { workflows: [5, run({ workflow_id: "ok-1" })] });
    expect(r.status).toBe(207);
    expect(r.json.results.map((x: { status: number }) => x.status)).toEqual([400, 201]);
  });

  it("oversize bodies: 1 MiB for one run, 8 MiB for a batch", async () => {
    const big = "x".repeat(1024 * 1024);
    await refused("POST", W, run({ answer: big }), 413, "payload_too_large");
    await refused("PUT", "/api/v1/agents/newbie", { name: "x", tools: [{ name: "t", description: big }] }, 413, "payload_too_large");
    // 2 MiB is fine for a batch…
    const chunky = Array.from({ length: 4 }, (_, i) => run({ workflow_id: `big-${i}`, answer: "y".repeat(500 * 1024) }));
    const ok = await call(server.baseUrl, admin, "POST", `${W}/batch`, { workflows: chunky });
    expect(ok.status).toBe(207);
    // …9 MiB is not.
    const huge = Array.from({ length: 18 }, (_, i) => run({ workflow_id: `huge-${i}`, answer: "z".repeat(512 * 1024) }));
    await refused("POST", `${W}/batch`, { workflows: huge }, 413, "payload_too_large");
  });

  it("unknown fields where they are forbidden", async () => {
    const p = await refused("PUT", "/api/v1/agents/newbie", { name: "x", learning: { min_executions: 3, min_execution: 4 } }, 400, "validation_error");
    expect(p.errors[0].path).toBe("/learning");
    await refused("PUT", "/api/v1/agents/newbie", { name: "x", outcome_rule: { fail_when: [{ tool: "t", path: "a", equals: 1, equal: 1 }] } }, 400, "validation_error");
    await refused("PUT", "/api/v1/agents/newbie", { name: "x", learning: { skill_injection_role: "developer", require_shadow: false } }, 400, "validation_error");
  });

  it("invalid ids in paths", async () => {
    await refused("POST", "/api/v1/agents/bad%20id/workflows", run(), 400, "validation_error");
    await refused("POST", `/api/v1/agents/${"a".repeat(129)}/workflows`, run(), 400, "validation_error");
    await refused("PUT", "/api/v1/agents/a%2Fb", { name: "x" }, 400, "validation_error");
    await refused("GET", "/api/v1/workflows/a$b", undefined, 400, "validation_error");
    await refused("GET", "/api/v1/agents/%C3%A9/classes", undefined, 400, "validation_error");
  });

  it("NUL characters anywhere in the body", async () => {
    await refused("POST", W, run({ query: "refund\u0000" }), 400, "validation_error");
    await refused("POST", W, run({ steps: [{ tool: "t", arguments: { "k\u0000": 1 } }] }), 400, "validation_error");
    await refused("POST", `${W}/batch`, { workflows: [run({ answer: "a\u0000b" })] }, 400, "validation_error");
    await refused("POST", "/api/v1/agents/target/conversations", { thread_id: "t", user_id: "u", messages: [{ role: "user", text: "\u0000", timestamp: "2026-11-30T10:00:00Z" }] }, 400, "validation_error");
  });

  it("lone surrogates in raw JSON text", async () => {
    await refused("POST", W, '{"query":"\\ud800","steps":[]}', 400, "validation_error");
    await refused("POST", W, '{"query":"ok","steps":[{"tool":"t","result":{"x":"\\udfff tail"}}]}', 400, "validation_error");
    await refused("PUT", "/api/v1/agents/newbie", '{"name":"\\ud83d"}', 400, "validation_error");
    // A proper pair is fine.
    const r = await call(server.baseUrl, admin, "POST", W, '{"workflow_id":"pair","query":"\\ud83d\\ude00","steps":[]}');
    expect(r.status).toBe(201);
  });

  it("deep nesting", async () => {
    let deep: unknown = { leaf: 1 };
    for (let i = 0; i < 100; i++) deep = { n: deep };
    await refused("POST", W, run({ steps: [{ tool: "t", arguments: deep }] }), 400, "validation_error");
    await refused("POST", `${W}/batch`, { workflows: [run({ steps: [{ tool: "t", result: deep }] })] }, 400, "validation_error");
    const nestedArrays = "[".repeat(200) + "]".repeat(200);
    await refused("POST", W, `{"query":"x","steps":[],"extra":${nestedArrays}}`, 400, "validation_error");
  });

  it("empty bodies", async () => {
    await refused("POST", W, "", 400, "validation_error");
    await refused("PUT", "/api/v1/agents/newbie", "", 400, "validation_error");
  });
});
