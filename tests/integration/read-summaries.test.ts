// Reads that stay bounded as data grows: the activity summaries behind /accounts and /traces
// follow ingestion, deletion and forgetting; the runs list counts from the run counters;
// similarity search finds an old run beyond the newest 2,000.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_KEY, startTestServer, type TestServer } from "../helpers/server";
import { call, withKey } from "../helpers/http";
import { postMessages } from "../helpers/persona";
import { createPrismaClient, type Db } from "@/lib/db/prisma";
import { listAccounts } from "@/lib/accounts/account-list";
import { listThreads } from "@/lib/traces/timeline";
import { listRuns, runsQuerySchema } from "@/lib/learning/review/run-list";

const AGENT = "sums";
const key = withKey(ADMIN_KEY);
let server: TestServer;
let db: Db;

const run = (workflowId: string, userId: string | null, threadId: string | null, query = "Refund order A1", createdAt?: string) =>
  call(server.baseUrl, key, "POST", `/api/v1/agents/${AGENT}/workflows`, {
    workflow_id: workflowId,
    ...(userId ? { user_id: userId } : {}),
    ...(threadId ? { thread_id: threadId } : {}),
    ...(createdAt ? { created_at: createdAt } : {}),
    query,
    steps: [{ tool: "lookup_order", arguments: { id: workflowId } }],
    outcome: "success",
  });

const account = async (userId: string) => (await listAccounts(db, { q: userId, after: null, pageSize: 25 })).rows.find((r) => r.userId === userId);
const threads = async (userId: string) =>
  (await listThreads(db, { userId }, { after: null, pageSize: 50 })).rows.map((t) => [t.threadId, t.messages, t.runs]).sort();

beforeAll(async () => {
  server = await startTestServer();
  db = createPrismaClient(server.databaseUrl, 2);
  const put = await call(server.baseUrl, key, "PUT", `/api/v1/agents/${AGENT}`, { name: "Sums", tools: [{ name: "lookup_order", description: "Find" }] });
  expect(put.status, put.text).toBe(200);
});

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
});

describe(`activity summaries (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("count an account's runs and threads as they are ingested", async () => {
    expect((await run("a-1", "acct-s1", "th-1")).status).toBe(201);
    expect((await run("a-2", "acct-s1", null)).status).toBe(201);
    expect((await run("a-1", "acct-s1", "th-1")).status).toBe(200); // a duplicate counts nothing
    await postMessages(server, AGENT, "acct-s1", "th-1", ["hello", "again"]);
    await postMessages(server, AGENT, "acct-s1", "th-2", ["another thread"]);
    expect(await account("acct-s1")).toMatchObject({ agentId: AGENT, runs: 2, threads: 2 });
    expect(await threads("acct-s1")).toEqual([["th-1", 2, 1], ["th-2", 1, 0]]);
  });

  it("follow retention's and forgetting's deletions", async () => {
    await postMessages(server, AGENT, "acct-s2", "th-9", ["to be forgotten"]);
    expect(await account("acct-s2")).toMatchObject({ runs: 0, threads: 1 });
    const forgot = await call(server.baseUrl, key, "DELETE", `/api/v1/accounts/acct-s2`);
    expect(forgot.status, forgot.text).toBe(200);
    expect(await account("acct-s2")).toBeUndefined();
    expect(await threads("acct-s2")).toEqual([]);
    // Deleting a thread's messages (as retention does) leaves its runs counted.
    await server.sql.query("DELETE FROM conversation_messages WHERE agent_id = $1 AND thread_id = 'th-1'", [AGENT]);
    expect(await threads("acct-s1")).toEqual([["th-1", 0, 1], ["th-2", 1, 0]]);
    await server.sql.query("DELETE FROM conversation_messages WHERE agent_id = $1 AND thread_id = 'th-2'", [AGENT]);
    expect(await threads("acct-s1")).toEqual([["th-1", 0, 1]]);
    expect(await account("acct-s1")).toMatchObject({ runs: 2, threads: 1 });
  });

  it("drop an agent's activity as its deletion starts", async () => {
    const other = "sums-gone";
    expect((await call(server.baseUrl, key, "PUT", `/api/v1/agents/${other}`, { name: "Gone", tools: [] })).status).toBe(200);
    const newest = { role: "user", text: "newest activity elsewhere", timestamp: new Date(Date.now() + 60_000).toISOString() };
    const posted = await call(server.baseUrl, key, "POST", `/api/v1/agents/${other}/conversations`, { thread_id: "th-x", user_id: "acct-s1", messages: [newest] });
    expect(posted.status, posted.text).toBe(201);
    expect(await account("acct-s1")).toMatchObject({ agentId: other, runs: 2, threads: 2 });
    expect((await call(server.baseUrl, key, "DELETE", `/api/v1/agents/${other}`)).status).toBe(202);
    expect(await account("acct-s1")).toMatchObject({ agentId: AGENT, runs: 2, threads: 1 });
    expect((await listThreads(db, { agentId: other }, { after: null, pageSize: 5 })).rows).toEqual([]);
  });
});

describe("the runs list's total", () => {
  it("comes from the run counters when only the agent filters, and is capped otherwise", async () => {
    const agentTotal = (await listRuns(db, runsQuerySchema.parse({ agent: AGENT }))).total;
    // The counters hold the total: moving them moves the figure, without a count of the runs.
    await server.sql.query("UPDATE agent_run_counters SET runs = runs + 5000 WHERE agent_id = $1 AND slot = (SELECT min(slot) FROM agent_run_counters WHERE agent_id = $1)", [AGENT]);
    expect((await listRuns(db, runsQuerySchema.parse({ agent: AGENT }))).total).toBe(agentTotal + 5000);
    expect((await listRuns(db, runsQuerySchema.parse({}))).total).toBeGreaterThanOrEqual(agentTotal + 5000);
    expect(await listRuns(db, runsQuerySchema.parse({ agent: AGENT, outcome: "success" }))).toMatchObject({ total: agentTotal, capped: false });
    await server.sql.query("UPDATE agent_run_counters SET runs = runs - 5000 WHERE agent_id = $1 AND runs >= 5000", [AGENT]);
  });
});

describe("similarity search", () => {
  it("finds an old run behind more than 2,000 newer ones", async () => {
    const old = await run("old-wanted", null, null, "Cancel the zephyr subscription renewal", "2020-01-01T00:00:00Z");
    expect(old.status, old.text).toBe(201);
    // 2,100 newer runs about something else, in batches.
    for (let b = 0; b < 21; b++) {
      const body = Array.from({ length: 100 }, (_, i) => ({
        workflow_id: `new-${b}-${i}`,
        query: `Track parcel ${b * 100 + i}`,
        steps: [{ tool: "lookup_order", arguments: { id: `${b}-${i}` } }],
        outcome: "success",
      }));
      const r = await call(server.baseUrl, key, "POST", `/api/v1/agents/${AGENT}/workflows/batch`, { workflows: body });
      expect(r.status, r.text).toBeLessThan(300);
    }
    const found = await call(server.baseUrl, key, "GET", `/api/v1/agents/${AGENT}/workflows?query=${encodeURIComponent("zephyr subscription")}&limit=3`);
    expect(found.status, found.text).toBe(200);
    expect(found.json.workflows[0].workflow_id).toBe("old-wanted");
  });
});
