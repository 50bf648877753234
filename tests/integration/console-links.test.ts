// The console's loaders that need a database to be right: traces threads paged with a true total
// and searched (thread, account, query text), the agent scope's alias; the audit log naming its
// targets from one lookup per type, hiding page views unless asked, and finding an account by
// its plain id without showing the pseudonym the rows hold.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_KEY, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";
import { call, login, withKey, type Caller } from "../helpers/http";
import { callAction } from "../helpers/actions";
import { putAgent, REFUND_TOOLS } from "../helpers/learning";
import { viewPage } from "../helpers/persona";

const AGENT = "links-bot";
const key = withKey(ADMIN_KEY);
let server: TestServer;
let admin: Caller;

const run = (i: number) => ({
  workflow_id: `links-${i}`,
  user_id: `acct-${i % 3}`,
  thread_id: `thread-${String(i).padStart(2, "0")}`,
  query: i === 7 ? "Where is my zebra-striped parcel?" : `Refund order ${i}`,
  steps: [{ tool: REFUND_TOOLS[0].name, arguments: { order_id: `O${i}` }, result: { status: "paid" } }],
  outcome: "success",
});

beforeAll(async () => {
  server = await startTestServer();
  admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  await putAgent(server, AGENT);
  // 55 threads: one more page than the 50 shown at a time.
  const batch = await call(server.baseUrl, key, "POST", `/api/v1/agents/${AGENT}/workflows/batch`, { workflows: Array.from({ length: 55 }, (_, i) => run(i)) });
  expect(batch.status, batch.text).toBe(207);
  expect(batch.json.results.every((r: { status: number }) => r.status === 201)).toBe(true);
});
afterAll(async () => {
  await server?.stop();
});

const threadsOn = (html: string) => (html.match(/data-testid="thread"/g) ?? []).length;
/** The page's text with React's separators between adjacent text parts removed. */
const plain = (html: string) => html.replaceAll("<!-- -->", "");

describe(`console links (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("pages the threads with their total, keeps the filters in the page links, and searches thread, account and query text", async () => {
    const first = await call(server.baseUrl, admin, "GET", `/traces?agent=${AGENT}`);
    expect(first.status).toBe(200);
    expect(threadsOn(first.text)).toBe(50);
    expect(plain(first.text)).toContain("55 in all");
    // Keyset paging: "Next" names the last thread shown, and keeps the filters.
    const next = first.text.match(/<a [^>]*rel="next" href="(\/traces\?agent=[^"]*after=[^"]+)"/)?.[1]?.replaceAll("&amp;", "&");
    expect(next).toBeDefined();
    const second = await call(server.baseUrl, admin, "GET", next!);
    expect(threadsOn(second.text)).toBe(5);
    expect(plain(second.text)).toContain("55 in all");
    // The old spelling of the agent scope reads the same.
    const alias = await call(server.baseUrl, admin, "GET", next!.replace("agent=", "agent_id="));
    expect(threadsOn(alias.text)).toBe(5);

    const byText = await call(server.baseUrl, admin, "GET", `/traces?q=ZEBRA-striped`);
    expect(threadsOn(byText.text)).toBe(1);
    expect(byText.text).toContain("thread-07");
    const byAccount = await call(server.baseUrl, admin, "GET", `/traces?agent=${AGENT}&q=acct-2`);
    expect(plain(byAccount.text)).toMatch(/Threads <span[^>]*>\(18\)/);
    const byThread = await call(server.baseUrl, admin, "GET", `/traces?q=thread-5`);
    expect(threadsOn(byThread.text)).toBe(5);
    // LIKE wildcards in the search are literal.
    const wildcard = await call(server.baseUrl, admin, "GET", `/traces?q=${encodeURIComponent("%_")}`);
    expect(wildcard.text).toContain("No threads match these filters");
  });

  it("names audit targets and links them, hides page views unless asked, and finds an account by its plain id", async () => {
    const created = await callAction(server, admin, "lib/actions/api-keys.ts#createApiKey", { name: "links key", scopes: ["ingest"] });
    expect(created.kind).toBe("ok");
    const keyId = (await server.sql.query(`SELECT id FROM api_keys WHERE name = 'links key'`)).rows[0].id;
    expect((await viewPage(server, admin, "acct-1")).status).toBe(200);
    expect((await viewPage(server, admin, "acct-2")).status).toBe(200);
    const pseudonyms = (await server.sql.query(`SELECT target_id FROM audit_events WHERE action = 'persona_profile.viewed' ORDER BY id`)).rows.map((r) => r.target_id);
    expect(pseudonyms).toHaveLength(2);

    const page = await call(server.baseUrl, admin, "GET", "/audit");
    expect(page.text).toContain(`href="/settings/api-keys#api-key-${keyId}">API key “links key”</a>`);
    expect(page.text).toContain(`href="/agents/${AGENT}">agent Agent ${AGENT}</a>`);
    expect(page.text).not.toContain('data-event="persona_profile.viewed"');
    expect(page.text).toContain("Show page views");

    const views = await call(server.baseUrl, admin, "GET", "/audit?views=show");
    expect((views.text.match(/data-event="persona_profile\.viewed"/g) ?? []).length).toBe(2);
    expect(views.text).toContain("an account (pseudonymous");

    const one = await call(server.baseUrl, admin, "GET", "/audit?account=acct-1&views=show");
    expect((one.text.match(/data-event="persona_profile\.viewed"/g) ?? []).length).toBe(1);
    expect(one.text).toContain(`href="/persona-evolution?user_id=acct-1">account acct-1</a>`);
    for (const p of pseudonyms) expect(one.text).not.toContain(p);
    const none = await call(server.baseUrl, admin, "GET", "/audit?account=acct-nobody&views=show");
    expect(none.text).toContain("No events match these filters");
  });
});
