// Proctor as a fleet (docs/deploy.md, docs/fleet-state.md): two web processes on two ports sharing NEXTAUTH_SECRET and two
// worker processes, all on one PostgreSQL, with traffic spread over both web processes. What one
// process changes holds in every other at once (sessions, API keys, agent settings read by
// /context, the API rate limit), the cadence runs one promotion cycle per mark, shadow evaluation
// writes one record per (run, skill), and a worker killed mid-job leaves its jobs to the other.
// PostgreSQL only (POSTGRES_ONLY in vitest.integration.config.ts): PGlite is one process's database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_PASSWORD, FLEET_WEB_ENV, launchTestServer, startTestServer, waitFor, type TestServer } from "../helpers/server";
import { call, login, type Caller } from "../helpers/http";
import { callAction } from "../helpers/actions";
import { createConsoleUser } from "../helpers/console";
import { ingestKey } from "../helpers/keys";
import { context, cycle, postBatch, postRun, putAgent, REFUND_TOOLS, refundRun } from "../helpers/learning";
import { drained, expectEachRunOnce, records, shadowAgent } from "../helpers/shadow";
import { startWorker, type Worker } from "../helpers/worker";
import { createPrismaClient, type Db } from "@/lib/db/prisma";
import { takeToken } from "@/lib/api/rate-limit";

// Long enough that a live worker's batch is never taken from it; short enough that the killed
// worker's jobs come back within the test.
const LEASE = { PROCTOR_JOB_LEASE_SECONDS: "10" };

let web: TestServer[] = [];
let workers: Worker[] = [];
/** The first admin signed in on the first web process, and the same session sent to each process. */
let adminOn: (server: TestServer) => Caller;

beforeAll(async () => {
  const first = await startTestServer({ env: FLEET_WEB_ENV });
  web = [first, await launchTestServer({ env: FLEET_WEB_ENV, databaseUrl: first.databaseUrl })];
  workers = [startWorker(first, LEASE), startWorker(first, LEASE)];
  const session = await login(first.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  // A browser names the origin it talks to; the cookie is the one the first process issued.
  adminOn = (server) => ({ headers: { ...session.headers, origin: server.baseUrl } });
}, 240_000);
afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  // The second process shares the first one's database, which the first (a shared server) keeps.
  await web[1]?.stop();
  await web[0]?.stop();
});

const [A, B] = [0, 1];
const pageStatus = async (server: TestServer, caller: Caller) => (await call(server.baseUrl, caller, "GET", "/agents")).status;
const workerOutput = () => workers.map((w, i) => `worker ${i}:\n${w.output().slice(-2000)}`).join("\n");

describe("a fleet of two web processes and two workers on one PostgreSQL", () => {
  it("a session signed in on one web process works on the other; signing out everywhere on one ends it on both", async () => {
    const user = await createConsoleUser(web[A].baseUrl, adminOn(web[A]), { email: "fleet@test.local", role: "VIEWER", password: "fleet-password-1" });
    const session = await login(web[A].baseUrl, "fleet@test.local", "fleet-password-1");
    expect(await pageStatus(web[B], session)).toBe(200);
    const ended = await callAction(web[B], adminOn(web[B]), "lib/actions/users.ts#signOutEverywhere", { id: user.id, reason: "fleet test" });
    expect(ended.kind, ended.text).toBe("ok");
    for (const server of web) expect(await pageStatus(server, session)).toBe(307);
    expect(await pageStatus(web[A], adminOn(web[A]))).toBe(200);
  }, 120_000); // the second process renders its first page here

  it("an API key revoked through one web process is refused by the other at once", async () => {
    await putAgent(web[A], "fleet-keys");
    const key = await ingestKey(web[A], adminOn(web[A]));
    const send = (server: TestServer) => call(server.baseUrl, key.caller, "POST", "/api/v1/agents/fleet-keys/workflows", refundRun());
    for (const server of web) expect((await send(server)).status).toBe(201);
    const revoked = await callAction(web[A], adminOn(web[A]), "lib/actions/api-keys.ts#revokeApiKey", { id: key.id, reason: "fleet test" });
    expect(revoked.kind, revoked.text).toBe("ok");
    const refused = await send(web[B]);
    expect(refused.status).toBe(401);
    expect(refused.json).toMatchObject({ code: "unauthorized" });
  });

  it("an agent update through one web process changes /context on the other at once", async () => {
    await putAgent(web[A], "fleet-context");
    for (let i = 0; i < 5; i++) await postRun(web[i % 2], "fleet-context");
    const [skillId] = (await cycle(web[B], "fleet-context")).promoted;
    expect(skillId).toBeTruthy();
    // Both processes have the skill in their retrieval caches.
    for (const server of web) expect((await context(server, "fleet-context", { query: "Refund order ORD-7" })).skills.map((s: { skill_id: string }) => s.skill_id)).toEqual([skillId]);
    // The refund tool goes away through the first process: the skill that uses it is retired.
    await putAgent(web[A], "fleet-context", {}, REFUND_TOOLS.filter((t) => t.name !== "issue_refund"));
    expect((await context(web[B], "fleet-context", { query: "Refund order ORD-7" })).skills).toEqual([]);
  });

  it("one API key's rate limit is one allowance whichever process takes from it", async () => {
    const key = await ingestKey(web[A], adminOn(web[A]));
    // Two database clients stand for two processes: a burst of two at one request per 1,000 s.
    const clients: Db[] = [createPrismaClient(web[A].databaseUrl, 1), createPrismaClient(web[A].databaseUrl, 1)];
    try {
      const take = (c: Db) => takeToken(c, key.id, 0.001, 2);
      expect(await take(clients[0])).toBe(0);
      expect(await take(clients[1])).toBe(0);
      expect(await take(clients[0])).toBeGreaterThan(900);
      expect(await take(clients[1])).toBeGreaterThan(900);
    } finally {
      await Promise.all(clients.map((c) => c.$disconnect()));
    }
    // The routes' own limits see the same state: the key has borrowed far past any burst.
    await putAgent(web[A], "fleet-limits");
    for (const server of web) {
      const r = await call(server.baseUrl, key.caller, "POST", "/api/v1/agents/fleet-limits/workflows", refundRun());
      expect(r.status).toBe(429);
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(900);
    }
  });

  it("the promotion cadence runs one cycle per mark, whichever process ingested the runs", async () => {
    await putAgent(web[A], "fleet-cadence", { promotion_every_n_runs: 5 });
    // 20 runs at once, half through each process. The request that crosses the mark moves it to
    // the total and enqueues a cycle unless one is still pending, so there are one to four. A
    // request sees the totals committed before its statement: the last of concurrent ones may all
    // miss the final crossing, which the next run then finds (the check is a level): a 21st run.
    await Promise.all(Array.from({ length: 20 }, (_, i) => postRun(web[i % 2], "fleet-cadence", { orderId: `ORD-C${i}` })));
    await postRun(web[B], "fleet-cadence", { orderId: "ORD-C20" });
    const jobs = async () => (await web[A].sql.query("SELECT status::text AS status FROM jobs WHERE kind = 'promotion_cycle' AND agent_id = 'fleet-cadence'")).rows;
    await waitFor(async () => (await jobs()).every((j) => j.status === "DONE"), 120_000, workerOutput);
    const cycles = (await jobs()).length;
    expect(cycles).toBeGreaterThanOrEqual(1);
    expect(cycles).toBeLessThanOrEqual(4);
    const agent = await web[A].sql.query("SELECT cycle_mark FROM agents WHERE id = 'fleet-cadence'");
    expect(agent.rows[0].cycle_mark).toBeGreaterThan(15);
    expect(agent.rows[0].cycle_mark).toBeLessThanOrEqual(21);
    // Each cycle ran once: no more reports than jobs (a job that met another cycle of the agent
    // running stops without one), never two at once, and one skill for the one class.
    const reports = (await web[A].sql.query("SELECT started_at, finished_at FROM promotion_reports WHERE agent_id = 'fleet-cadence' AND trigger = 'cadence' ORDER BY started_at")).rows;
    expect(reports.length).toBeGreaterThanOrEqual(1);
    expect(reports.length).toBeLessThanOrEqual(cycles);
    for (let i = 1; i < reports.length; i++) expect(reports[i].started_at.getTime()).toBeGreaterThanOrEqual(reports[i - 1].finished_at.getTime());
    const skills = await web[A].sql.query("SELECT count(*)::int AS n FROM skills WHERE agent_id = 'fleet-cadence'");
    expect(skills.rows[0].n).toBe(1);
  }, 300_000);

  it("shadow evaluation writes one record per (run, skill); a worker killed mid-job leaves its jobs to the other", async () => {
    const { skill } = await shadowAgent(web[A], "fleet-shadow", { shadow_evaluation_queue_size: 1000 });
    const runIds = (await Promise.all(web.map((server) => postBatch(server, "fleet-shadow", 200)))).flat();
    await waitFor(async () => (await records(web[A], skill.skill_id)).length >= 10, 60_000, workerOutput);
    await workers[0].kill();
    expect((await records(web[A], skill.skill_id)).length).toBeLessThan(runIds.length); // killed mid-way
    await drained(web[A], "fleet-shadow", 120_000);
    await expectEachRunOnce(web[A], "fleet-shadow", skill.skill_id, runIds);
  }, 300_000);
});
