// Without PROCTOR_PERSONA_ACTIONS the page is inspection-only and actions are refused; audit
// pseudonyms come from a key persisted in the database, so they survive a restart.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";
import { login, type Caller } from "../helpers/http";
import { act, auditRows, postMessages, putAgent, viewPage } from "../helpers/persona";

let server: TestServer;
let admin: Caller;

beforeAll(async () => {
  // No pseudonym key from the environment: the instance generates and persists one.
  server = await startTestServer({ env: { PROCTOR_PSEUDONYM_KEY: "" } });
  admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  await putAgent(server, "helper");
  await postMessages(server, "helper", "acct-r", "t-r", ["I want to learn knitting."]);
});
afterAll(async () => {
  await server?.stop();
});

async function viewedTarget(userId: string): Promise<string> {
  expect((await viewPage(server, admin, userId)).status).toBe(200);
  return (await auditRows(server, "persona_profile.viewed")).at(-1)!.target_id;
}

describe(`persona inspection and pseudonyms across restarts (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("is inspection-only unless actions are enabled", async () => {
    const page = await viewPage(server, admin, "acct-r");
    expect(page.text).toContain("Inspection only. Persona actions must be explicitly enabled by the host.");
    const before = (await auditRows(server)).length;
    const r = await act(server, admin, { user_id: "acct-r", action: "reflect" });
    expect(r.status).toBe(403);
    expect(r.json.detail).toBe("Persona changes are not enabled for this UI");
    expect((await auditRows(server)).length).toBe(before);
    expect((await server.sql.query(`SELECT count(*)::int AS n FROM account_personas`)).rows[0].n).toBe(0);
  });

  it("keeps pseudonyms stable across a restart and distinct per account", async () => {
    const r1 = await viewedTarget("acct-r");
    const s1 = await viewedTarget("acct-s");
    expect(r1).not.toBe(s1);
    await server.restart();
    admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    expect(await viewedTarget("acct-r")).toBe(r1);
    expect(await viewedTarget("acct-s")).toBe(s1);
  });
});
