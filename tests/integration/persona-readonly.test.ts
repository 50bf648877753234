// In read-only mode, explicitly enabled persona actions still work (and stay same-origin and
// audited) while every other write is refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_KEY, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";
import { call, login, withKey, type Caller } from "../helpers/http";
import { act, auditRows, viewPage } from "../helpers/persona";

let server: TestServer;
let admin: Caller;

beforeAll(async () => {
  server = await startTestServer({ env: { PROCTOR_READ_ONLY: "1", PROCTOR_PERSONA_ACTIONS: "1", PROCTOR_LLM_BASE_URL: "", PROCTOR_LLM_API_KEY: "" } });
  admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  // The agent API refuses writes in read-only mode, so the conversation is stored directly.
  await server.sql.query(`INSERT INTO agents (id, name, updated_at) VALUES ('ro-bot', 'Read-only bot', now())`);
  await server.sql.query(
    `INSERT INTO conversation_messages (id, agent_id, thread_id, user_id, message_id, role, text, timestamp)
     VALUES ('c1', 'ro-bot', 't-ro', 'acct-ro', 'm-1', 'user', 'My goal is to read more poetry.', now())`,
  );
});
afterAll(async () => {
  await server?.stop();
});

describe(`persona actions in read-only mode (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("allows enabled persona actions and nothing else", async () => {
    expect((await call(server.baseUrl, withKey(ADMIN_KEY), "PUT", "/api/v1/agents/other", { name: "x", tools: [] })).status).toBe(403);
    const page = await viewPage(server, admin, "acct-ro");
    expect(page.text).toContain("Trace editing stays disabled");
    expect((await act(server, admin, { user_id: "acct-ro", action: "reflect" }, { origin: "https://evil.invalid" })).status).toBe(403);
    const r = await act(server, admin, { user_id: "acct-ro", action: "reflect" }, { origin: server.baseUrl });
    expect(r.status, r.text).toBe(200);
    expect(r.json.pending.changes.goals.new).toBe("Read more poetry");
    expect((await auditRows(server, "persona_reflection.requested")).length).toBe(1);
  });
});
