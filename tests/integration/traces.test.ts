// Conversation traces: viewers browse threads; a thread's timeline merges its messages, its
// workflow runs (expandable tool steps with arguments, results and errors, plus the skills
// supplied as context: ids and versions) and the persona reviews that read it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_KEY, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";
import { anonymous, call, login, withKey, type Caller } from "../helpers/http";
import { createConsoleUser } from "../helpers/console";
import { act, postMessages } from "../helpers/persona";
import { createPrismaClient } from "@/lib/db/prisma";
import { listThreads, THREAD_CURSOR_KEYS } from "@/lib/traces/timeline";
import { cursorParam } from "@/lib/console/keyset";

const AGENT = "shop";
const USER = "acct-t";
let server: TestServer;
let admin: Caller;
let viewer: Caller;
let skill: { skill_id: string; version: number; content: string };
let review: { id: string; trace: { thread_id: string } };

const key = withKey(ADMIN_KEY);
const steps = (orderId: string) => [
  { tool: "lookup_order", arguments: { order_id: orderId }, result: { status: "paid" } },
  { tool: "issue_refund", arguments: { order_id: orderId, amount: 12.5 }, result: { accepted: true } },
];

beforeAll(async () => {
  server = await startTestServer({ env: { PROCTOR_PERSONA_ACTIONS: "1", PROCTOR_LLM_BASE_URL: "", PROCTOR_LLM_API_KEY: "" } });
  admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  await createConsoleUser(server.baseUrl, admin, { email: "viewer@test.local", role: "VIEWER", password: "viewer-password-1" });
  viewer = await login(server.baseUrl, "viewer@test.local", "viewer-password-1");
  const put = await call(server.baseUrl, key, "PUT", `/api/v1/agents/${AGENT}`, {
    name: "Shop bot",
    tools: [
      { name: "lookup_order", description: "Find an order" },
      { name: "issue_refund", description: "Refund an order" },
    ],
    // One account's runs: its own skill (per-account scope).
    learning: { require_shadow: false, auto_activate: true, learning_scope: "user" },
  });
  expect(put.status, put.text).toBe(200);
  // Enough successful runs of one procedure for a skill, distilled by a promotion cycle.
  for (let i = 0; i < 6; i++) {
    const r = await call(server.baseUrl, key, "POST", `/api/v1/agents/${AGENT}/workflows`, {
      workflow_id: `learn-${i}`,
      user_id: USER,
      query: i % 2 ? `Refund order B${i}` : `Please refund my order C${i}`,
      steps: steps(`X${i}`),
      outcome: "success",
    });
    expect(r.status, r.text).toBe(201);
  }
  const cycle = await call(server.baseUrl, key, "POST", `/api/v1/agents/${AGENT}/promotion-cycles`);
  expect(cycle.status, cycle.text).toBe(200);
  expect(cycle.json.promoted.length, cycle.text).toBe(1);
  skill = (await call(server.baseUrl, key, "GET", `/api/v1/skills/${cycle.json.promoted[0]}`)).json;

  await postMessages(server, AGENT, USER, "t-shop", ['Refund order A1 please <script>alert("x")</script>', "My goal is to zq-shop faster refunds."]);
  const run = await call(server.baseUrl, key, "POST", `/api/v1/agents/${AGENT}/workflows`, {
    workflow_id: "run-8812",
    user_id: USER,
    thread_id: "t-shop",
    root_trace_id: "tr-77",
    query: "Refund order A1",
    steps: [
      { tool: "lookup_order", arguments: { order_id: "A1" }, result: { status: "paid" } },
      { tool: "issue_refund", arguments: { order_id: "A1", amount: 12.5 }, error: { type: "TimeoutError", message: "gateway slow" } },
      { tool: "issue_refund", arguments: { order_id: "A1", amount: 12.5 }, result: { accepted: true } },
    ],
    outcome: "success",
    skills_activated: [skill.skill_id],
    answer: "Refunded.",
    // After the two messages it answered (postMessages stamps them from 09:00:01 on).
    created_at: "2026-11-30T09:30:00Z",
  });
  expect(run.status, run.text).toBe(201);
  const reflected = await act(server, admin, { user_id: USER, action: "reflect" });
  expect(reflected.status, reflected.text).toBe(200);
  review = reflected.json.reviews[0];
});
afterAll(async () => {
  await server?.stop();
});

describe(`conversation traces (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("lists recent threads for viewers, filtered by agent and account", async () => {
    const list = await call(server.baseUrl, viewer, "GET", `/traces?user_id=${USER}`);
    expect(list.status).toBe(200);
    expect(list.text).toContain("/traces?agent=shop&amp;user_id=acct-t&amp;thread_id=t-shop#trace-timeline");
    const other = await call(server.baseUrl, viewer, "GET", `/traces?agent_id=another`);
    expect(other.text).not.toContain("t-shop");
    expect(other.text).toContain("No threads match these filters");
    expect((await call(server.baseUrl, anonymous, "GET", "/traces")).status).toBe(307);
  });

  it("pages threads by keyset from the thread summaries, with their count", async () => {
    const db = createPrismaClient(server.databaseUrl, 1);
    try {
      await postMessages(server, AGENT, "acct-t2", "t-second", ["A second thread"]);
      const all = await listThreads(db, {}, { after: null, pageSize: 50 });
      expect(all.total).toBe(all.rows.length);
      expect(all.rows.length).toBeGreaterThan(1);
      expect(all.next).toBeNull();
      // Page by page, one thread each, the same threads in the same order.
      const seen = [];
      let after = null;
      for (let i = 0; i < all.rows.length; i++) {
        const page = await listThreads(db, {}, { after, pageSize: 1 });
        expect(page.total).toBe(all.total);
        seen.push(...page.rows);
        after = page.next ? cursorParam({ after: page.next }, THREAD_CURSOR_KEYS) : null;
        expect(after === null).toBe(i === all.rows.length - 1);
      }
      expect(seen).toEqual(all.rows);
    } finally {
      await db.$disconnect();
    }
  });

  it("shows one thread as a timeline of messages, runs with tool steps and supplied skills, and persona reviews", async () => {
    const r = await call(server.baseUrl, viewer, "GET", `/traces?agent_id=${AGENT}&user_id=${USER}&thread_id=t-shop&root_trace_id=tr-77`);
    expect(r.status).toBe(200);
    const html = r.text;
    expect(html).toContain('id="trace-timeline"');
    // Messages, escaped.
    expect(html).toContain("Refund order A1 please &lt;script&gt;alert(");
    expect(html).not.toContain('<script>alert("x")</script>');
    // The run, its steps (arguments, results and the error) and the skill supplied to it.
    expect(html).toContain("run-8812");
    expect(html).toMatch(/<details[^>]*>.*?issue_refund/s);
    expect(html).toContain("TimeoutError");
    expect(html).toContain("gateway slow");
    expect(html).toContain("&quot;accepted&quot;: true");
    expect(html).toContain(`href="/skills?agent=${AGENT}&amp;skill=${skill.skill_id}"`);
    expect(html).toMatch(new RegExp(` v(<!-- -->)?${skill.version}</a>`));
    // Its text is not supplied here.
    const distinctive = skill.content.split("\n").find((l) => l.length > 40 && !l.includes("lookup_order") && !l.includes("issue_refund"));
    if (distinctive) expect(html).not.toContain(distinctive);
    // The persona review that read this thread: status and usage, never the goals.
    expect(html).toContain("Persona review");
    expect(html).toContain(review.id);
    expect(html).not.toContain("Zq-shop faster refunds");
    // Ordered in time: both messages before the run that answered them.
    expect(html.indexOf("Refund order A1 please")).toBeLessThan(html.indexOf("run-8812"));
  });

  it("opens a reflection's own trace thread", async () => {
    const r = await call(server.baseUrl, viewer, "GET", `/traces?user_id=${USER}&thread_id=${encodeURIComponent(review.trace.thread_id)}`);
    expect(r.status).toBe(200);
    expect(r.text).toContain(review.id);
    expect(r.text).toContain("any agent ·</span><span>1 event<");
    expect(r.text).not.toContain("Zq-shop faster refunds");
  });
});
