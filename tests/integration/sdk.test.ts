// The TypeScript SDK (packages/sdk) against the real console: recorded runs go out in batches
// (by size, by interval, on flush and shutdown), requests answered 429/503 or not answered are
// resent after Retry-After or a backoff and stored once, refusals are never resent and surface
// as typed errors, and withSkills injects the agent's ACTIVE skill, which the example agent
// (examples/sdk-agent, run with its one command) then follows and reports.
// Between the SDK and the console sits a loopback proxy: the stand-in for a load balancer that
// refuses, drops or loses answers on a script, and counts what reaches it.
import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Proctor, ProctorError, type ProctorOptions, type Run } from "../../packages/sdk/src/index";
import { ADMIN_KEY, startTestServer, waitFor, type TestServer } from "../helpers/server";
import { cycle, getSkill, refundRun, REFUND_TOOLS } from "../helpers/learning";

const AGENT = "sdk-shop";
/** The shop's accounts: the agent pools their runs (learning_scope "agent", the default), so the skill is agent-wide. */
const ACCOUNTS = ["acct-ana", "acct-bo", "acct-cy", "acct-dee"];
let recorded = 0;
const root = path.resolve(import.meta.dirname, "../..");

/** What the proxy does with the next request: pass it on, refuse it, drop it, or pass it on and lose the answer. */
type Step = "forward" | "drop" | "lose-answer" | { status: number; retryAfter?: string };
type Seen = { method: string; path: string; at: number };

function startProxy(target: string) {
  const seen: Seen[] = [];
  const script: Step[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    seen.push({ method: req.method!, path: req.url!, at: Date.now() });
    const step = script.shift() ?? "forward";
    if (step === "drop") return void req.socket.destroy();
    if (typeof step === "object") {
      const code = step.status === 429 ? "rate_limited" : "unavailable";
      res.writeHead(step.status, { "content-type": "application/problem+json", ...(step.retryAfter ? { "retry-after": step.retryAfter } : {}) });
      return void res.end(JSON.stringify({ type: "about:blank", title: code, status: step.status, detail: "proxy says no", code, request_id: "proxy" }));
    }
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !["host", "connection", "content-length"].includes(k))) as Record<string, string>;
    const answer = await fetch(target + req.url, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    const body = Buffer.from(await answer.arrayBuffer());
    if (step === "lose-answer") return void req.socket.destroy();
    res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
    res.end(body);
  });
  return new Promise<{ url: string; seen: Seen[]; script: Step[]; close(): Promise<void> }>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        seen,
        script,
        close: () => new Promise((done) => server.close(() => done())),
      }),
    ),
  );
}

let server: TestServer;
let proxy: Awaited<ReturnType<typeof startProxy>>;

const client = (over: Partial<ProctorOptions> = {}) => new Proctor({ baseUrl: proxy.url, apiKey: ADMIN_KEY, flushIntervalMs: 0, ...over });
const batchRequests = () => proxy.seen.filter((s) => s.method === "POST" && s.path === `/api/v1/agents/${AGENT}/workflows/batch`);
const singleRequests = () => proxy.seen.filter((s) => s.path === `/api/v1/agents/${AGENT}/workflows`);
/** A run of the refund procedure by the next account, without a workflow_id (the SDK assigns one). */
const run = (): Run => {
  const { workflow_id: _unset, ...rest } = refundRun({ userId: ACCOUNTS[recorded++ % ACCOUNTS.length] });
  return { ...rest, outcome: "success" };
};
const storedIds = async (ids: string[]) =>
  (await server.sql.query("SELECT workflow_id FROM workflows WHERE agent_id = $1 AND workflow_id = ANY($2)", [AGENT, ids])).rows.map((r) => r.workflow_id).sort();

beforeAll(async () => {
  server = await startTestServer();
  proxy = await startProxy(server.baseUrl);
});
afterAll(async () => {
  await proxy?.close();
  await server?.stop();
});

describe("recording runs", () => {
  it("declares the agent, then sends N recorded runs in fewer batch requests and stores them all", async () => {
    const proctor = client({ batchSize: 4 });
    const agent = await proctor.declareAgent(AGENT, {
      name: "SDK shop",
      tools: REFUND_TOOLS,
      learning: { promotion_every_n_runs: 0, require_shadow: false, auto_activate: true },
    });
    expect(agent).toMatchObject({ agent_id: AGENT, learning: expect.objectContaining({ min_executions: expect.any(Number) }) });

    const ids = Array.from({ length: 10 }, () => proctor.recordRun(AGENT, run()));
    const { results, failed } = await proctor.flush();
    expect(failed).toEqual([]);
    expect(results.map((r) => [r.workflow_id, r.status, r.duplicate])).toEqual(ids.map((id) => [id, 201, false]));
    expect(batchRequests()).toHaveLength(3);
    expect(singleRequests()).toEqual([]);
    expect(await storedIds(ids)).toEqual([...ids].sort());
  });

  it("sends on the interval without a flush; shutdown sends the rest and refuses new runs", async () => {
    const before = batchRequests().length;
    const proctor = client({ flushIntervalMs: 100 });
    const early = [proctor.recordRun(AGENT, run()), proctor.recordRun(AGENT, run())];
    await waitFor(async () => (await storedIds(early)).length === 2, 20_000, () => "runs not sent on the interval");
    expect(batchRequests().length).toBe(before + 1);

    const late = proctor.recordRun(AGENT, run());
    const { results } = await proctor.shutdown();
    expect(results.map((r) => r.workflow_id)).toEqual([...early, late]);
    expect(await storedIds([late])).toEqual([late]);
    expect(() => proctor.recordRun(AGENT, run())).toThrow(/after shutdown/);
  });
});

describe("retries", () => {
  // The backoff alone would wait a minute or more before each resend: finishing within the
  // test's timeout means Retry-After (seconds, then an HTTP date) was followed.
  it("waits as Retry-After says on 503 and 429, then stores the run", { timeout: 30_000 }, async () => {
    const proctor = client({ retryBaseDelayMs: 120_000, maxRetryDelayMs: 600_000 });
    const id = proctor.recordRun(AGENT, run());
    const before = batchRequests().length;
    proxy.script.push({ status: 503, retryAfter: "1" }, { status: 429, retryAfter: new Date(Date.now() + 2_000).toUTCString() });
    const { results, failed } = await proctor.flush();
    expect(failed).toEqual([]);
    expect(results).toMatchObject([{ workflow_id: id, status: 201 }]);
    const attempts = batchRequests().slice(before);
    expect(attempts).toHaveLength(3);
    expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(1_000);
    expect(await storedIds([id])).toEqual([id]);
  });

  it("resends after a dropped connection and a lost answer; the resent run is stored once", async () => {
    const proctor = client({ retryBaseDelayMs: 10 });
    const before = batchRequests().length;
    proxy.script.push("drop", "lose-answer");
    const id = proctor.recordRun(AGENT, run());
    const { results } = await proctor.flush();
    expect(batchRequests().length - before).toBe(3);
    // The second attempt was stored; the third finds the SDK's workflow_id already there.
    expect(results).toMatchObject([{ workflow_id: id, status: 200, duplicate: true }]);
    expect(await storedIds([id])).toEqual([id]);
  });

  it("gives up after maxRetries and reports the batch with its problem", async () => {
    const reported: [ProctorError, Run[]][] = [];
    const proctor = client({ maxRetries: 2, onError: (error, runs) => reported.push([error, runs]) });
    const before = batchRequests().length;
    proxy.script.push(...[1, 2, 3].map(() => ({ status: 503, retryAfter: "0" })));
    const id = proctor.recordRun(AGENT, run());
    const { results, failed } = await proctor.flush();
    expect(batchRequests().length - before).toBe(3);
    expect(results).toEqual([]);
    expect(failed).toHaveLength(1);
    expect(failed[0].error).toBeInstanceOf(ProctorError);
    expect(failed[0]).toMatchObject({ agentId: AGENT, runs: [{ workflow_id: id }], error: { status: 503, code: "unavailable" } });
    expect(reported).toEqual([[failed[0].error, failed[0].runs]]);
    expect(await storedIds([id])).toEqual([]);
  });

  it("never resends a refusal: 400 and 401 are typed errors with the console's problem", async () => {
    const proctor = client({ retryBaseDelayMs: 10 });
    const puts = () => proxy.seen.filter((s) => s.method === "PUT").length;
    const putsBefore = puts();
    const refused = await proctor.declareAgent(AGENT, { name: "SDK shop", tools: REFUND_TOOLS, learning: { no_such_key: 1 } as never }).catch((e) => e);
    expect(refused).toBeInstanceOf(ProctorError);
    expect(refused).toMatchObject({ status: 400, code: "validation_error", problem: { status: 400, request_id: expect.any(String) } });
    expect(puts() - putsBefore).toBe(1);

    const stranger = client({ apiKey: `pk_garbage00_${"g".repeat(32)}`, retryBaseDelayMs: 10 });
    const before = batchRequests().length;
    stranger.recordRun(AGENT, run());
    const { failed } = await stranger.flush();
    expect(failed[0].error).toMatchObject({ status: 401, code: "unauthorized" });
    expect(batchRequests().length - before).toBe(1);

    // One bad run in a batch is refused on its own; the others are stored.
    const good = proctor.recordRun(AGENT, run());
    const bad = proctor.recordRun(AGENT, { steps: [] } as unknown as Run);
    const { results } = await proctor.flush();
    expect(results.map((r) => [r.workflow_id, r.status])).toEqual([
      [good, 201],
      [bad, 400],
    ]);
    expect(await storedIds([good, bad])).toEqual([good]);
  });
});

describe("withSkills", () => {
  it("injects the agent's ACTIVE skill in the provider's roles and returns its id; the example agent follows and reports it", async () => {
    const report = await cycle(server, AGENT);
    expect(report.promoted).toHaveLength(1);
    const skill = await getSkill(server, report.promoted[0]);
    // Learned from several accounts' runs: agent-wide, for every account.
    expect(skill).toMatchObject({ status: "active", user_id: null });

    const proctor = client();
    const messages = [
      { role: "system" as const, content: "You are the shop's agent." },
      { role: "user" as const, content: "Refund order ORD-77" },
    ];
    const openai = await proctor.withSkills(AGENT, { userId: "acct-ana", provider: "openai", messages });
    expect(openai.skillsActivated).toEqual([skill.skill_id]);
    expect(openai.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(openai.messages[0].content.startsWith("You are the shop's agent.")).toBe(true);
    expect(openai.messages[1].content).toContain(skill.content);
    expect(openai.messages[1].content.endsWith("Refund order ORD-77")).toBe(true);
    const anthropic = await proctor.withSkills(AGENT, { userId: "acct-bo", provider: "anthropic", messages });
    expect(anthropic.system?.startsWith("You are the shop's agent.")).toBe(true);
    expect(anthropic.messages.map((m) => m.role)).toEqual(["user"]);
    // An agent-wide skill reaches an account never seen, and a request without an account, as documented.
    expect((await proctor.withSkills(AGENT, { userId: "someone-new", messages })).skillsActivated).toEqual([skill.skill_id]);
    expect((await proctor.withSkills(AGENT, { messages })).skillsActivated).toEqual([skill.skill_id]);
    // Under learning_scope "user" a skill learned from one account's runs is that account's alone.
    await proctor.declareAgent("sdk-tenants", { name: "SDK tenants", tools: REFUND_TOOLS, learning: { learning_scope: "user", promotion_every_n_runs: 0, require_shadow: false, auto_activate: true } });
    for (let i = 0; i < 5; i++) proctor.recordRun("sdk-tenants", { ...run(), user_id: "acct-tenant" });
    await proctor.flush();
    const own = (await cycle(server, "sdk-tenants")).promoted;
    expect(own).toHaveLength(1);
    expect((await proctor.withSkills("sdk-tenants", { userId: "acct-tenant", messages })).skillsActivated).toEqual(own);
    expect((await proctor.withSkills("sdk-tenants", { userId: "someone-new", messages })).skillsActivated).toEqual([]);

    const example = await runExample({ CONSOLE_URL: server.baseUrl, PROCTOR_API_KEY: ADMIN_KEY, AGENT_ID: AGENT });
    expect(example.code, example.output).toBe(0);
    expect(example.output).toContain("recorded 5 runs: 5 stored, 0 refused, 0 batches failed");
    // Five accounts' refunds pool into the skill's one agent-wide class, which the example prints.
    expect(example.output).toMatch(/class lookup_order → issue_refund \(every account\): \d+ runs, [5-9] accounts/);
    const runs = await server.sql.query(
      "SELECT query, skills_activated, steps FROM workflows WHERE agent_id = $1 AND query LIKE '%A100%' ORDER BY query",
      [AGENT],
    );
    expect(runs.rows).toHaveLength(5);
    expect(new Set(runs.rows.map((r) => r.query)).size).toBe(5);
    for (const r of runs.rows) {
      expect(r.skills_activated).toEqual([skill.skill_id]);
      // The skill's procedure (look up, refund), not the example's default plan that also emails.
      expect(r.steps.map((s: { tool: string }) => s.tool)).toEqual(["lookup_order", "issue_refund"]);
    }
  });
});

/** `npm run example:sdk-agent`, as its README says. */
function runExample(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "--silent", "example:sdk-agent"], { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("exit", (code) => resolve({ code, output }));
  });
}
