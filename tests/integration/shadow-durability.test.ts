// The durable shadow evaluation queue: the bound (jobs beyond shadow_evaluation_queue_size are
// dropped and counted; the run is still stored), crash safety (a worker killed mid-batch, a new
// one started: every job evaluated, one record per (workflow, skill, version)), two worker
// processes on one database (no duplicates, all done), and an admin's retry of a dead job.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, waitFor, type TestServer } from "../helpers/server";
import { call, login, type Caller } from "../helpers/http";
import { callAction } from "../helpers/actions";
import { admin, postBatch, postRuns, putAgent } from "../helpers/learning";
import { drained, expectEachRunOnce, records, shadowAgent, SHADOW_JOB } from "../helpers/shadow";
import { startWorker } from "../helpers/worker";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { PROCTOR_WORKER: "0" } });
});
afterAll(async () => {
  await server?.stop();
});

const db = process.env.PROCTOR_TEST_DB ?? "pglite";

describe(`durable shadow evaluation queue (${db})`, () => {
  it("bound: with queue size 5 and no worker, the 6th run is stored, its job is not, and dropped = 1", async () => {
    await putAgent(server, "bound", { shadow_evaluation_enabled: true, shadow_evaluation_queue_size: 5 });
    const runs = await postRuns(server, "bound", 6);
    const stored = await server.sql.query("SELECT count(*)::int AS n FROM workflows WHERE agent_id = 'bound'");
    expect(stored.rows[0].n).toBe(6);
    const jobs = await server.sql.query("SELECT payload->>'run_id' AS run_id FROM jobs WHERE kind = $1 AND agent_id = 'bound' ORDER BY id", [SHADOW_JOB]);
    expect(jobs.rows.map((j) => j.run_id)).toEqual(runs.slice(0, 5).map((r) => r.id));
    const agent = await server.sql.query("SELECT shadow_dropped FROM agents WHERE id = 'bound'");
    expect(agent.rows[0].shadow_dropped).toBe(1);

    // The agent page shows the queue (depth, dropped).
    const session = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    const page = await call(server.baseUrl, session, "GET", "/agents/bound");
    expect(page.status).toBe(200);
    expect(page.text).toContain("Dropped (queue full)");
    expect(page.text).toMatch(/Queue depth<\/dt><dd[^>]*>5 \/ 5</);
  });

  it("a run that both crosses the promotion cadence and overflows the bound enqueues its cycle and counts the drop", async () => {
    await putAgent(server, "both", { shadow_evaluation_enabled: true, shadow_evaluation_queue_size: 5, promotion_every_n_runs: 6 });
    await postRuns(server, "both", 6); // the 6th run is the cadence's and finds the queue full
    const cycles = await server.sql.query("SELECT count(*)::int AS n FROM jobs WHERE kind = 'promotion_cycle' AND agent_id = 'both'");
    expect(cycles.rows[0].n).toBe(1);
    const agent = await server.sql.query("SELECT cycle_mark, shadow_dropped FROM agents WHERE id = 'both'");
    expect(agent.rows[0]).toEqual({ cycle_mark: 6, shadow_dropped: 1 });
  });

  // Worker processes start, die and drain within the waits' own budgets (up to 120 s each on a
  // loaded machine), so these two get more than the suite's 60 s.
  it("a worker killed in the middle of a batch loses nothing: a new worker finishes, one record per (workflow, skill, version)", async () => {
    const { skill } = await shadowAgent(server, "crash", { shadow_evaluation_queue_size: 1000 });
    const runIds = await postBatch(server, "crash", 300);
    const env = { PROCTOR_JOB_LEASE_SECONDS: "2" };
    const first = startWorker(server, env);
    await waitFor(async () => (await records(server, skill.skill_id)).length >= 10, 60_000, first.output);
    await first.kill();
    const done = (await records(server, skill.skill_id)).length;
    expect(done).toBeLessThan(runIds.length); // killed mid-way
    const second = startWorker(server, env);
    try {
      await drained(server, "crash", 120_000);
    } finally {
      await second.stop();
    }
    await expectEachRunOnce(server, "crash", skill.skill_id, runIds);
  }, 300_000);

  it("two worker processes on one database: no duplicate records, every job done", async () => {
    const { skill } = await shadowAgent(server, "pair", { shadow_evaluation_queue_size: 1000 });
    const runIds = await postBatch(server, "pair", 200);
    const workers = [startWorker(server), startWorker(server)];
    try {
      await drained(server, "pair", 120_000);
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
    await expectEachRunOnce(server, "pair", skill.skill_id, runIds);
  }, 300_000);

  it("an admin sees a dead job and retries it (audited); it is then evaluated", async () => {
    const { skill } = await shadowAgent(server, "dead");
    const [runId] = await postBatch(server, "dead", 1);
    // The job exhausted its attempts (as failJob leaves it after PROCTOR_JOB_MAX_ATTEMPTS).
    const job = await server.sql.query(
      "UPDATE jobs SET status = 'DEAD', attempts = 5, last_error = 'ShadowEvaluationError: run x: Error', finished_at = now() WHERE kind = $1 AND agent_id = 'dead' AND payload->>'run_id' = $2 RETURNING id::text AS id",
      [SHADOW_JOB, runId],
    );
    const jobId = job.rows[0].id as string;
    const session = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    const page = await call(server.baseUrl, session, "GET", "/agents/dead");
    expect(page.text).toMatch(new RegExp(`job (<!-- -->)?${jobId}<`));
    expect(page.text).toContain("Retry");

    const retry = (who: Caller) => callAction(server, who, "lib/actions/learning.ts#retryShadowJob", { agent_id: "dead", job_id: jobId });
    const r = await retry(session);
    expect(r.kind, r.text).toBe("ok");
    expect(r.data).toEqual({ job_id: jobId, status: "pending" });
    const audit = await server.sql.query("SELECT actor_label, details FROM audit_events WHERE action = 'shadow_job.retried' AND target_id = $1", [jobId]);
    expect(audit.rows).toEqual([{ actor_label: ADMIN_EMAIL, details: { agent_id: "dead", kind: SHADOW_JOB } }]);
    // Only dead jobs can be retried; an API key is not a console session.
    expect((await retry(session)).kind).toBe("not_found");
    expect((await retry(admin)).kind).toBe("unauthorized");

    const worker = startWorker(server);
    try {
      await drained(server, "dead");
    } finally {
      await worker.stop();
    }
    expect((await records(server, skill.skill_id)).map((x) => x.workflow_run_id)).toEqual([runId]);
  });
});
