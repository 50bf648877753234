// The durable shadow evaluation queue: the bound (jobs beyond shadow_evaluation_queue_size are
// dropped and counted; the run is still stored) and an admin's retry of a dead job. Crash safety
// and several workers on one database (a worker killed mid-batch, the other finishing: one record
// per (workflow, skill, version)) are fleet.test.ts's, on PostgreSQL: the embedded database
// serves one process, so its worker processes would only take turns.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";
import { call, login, type Caller } from "../helpers/http";
import { callAction } from "../helpers/actions";
import { admin, postBatch, postRuns, putAgent } from "../helpers/learning";
import { drained, records, shadowAgent, SHADOW_JOB } from "../helpers/shadow";
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

    const retry = (who: Caller) => callAction(server, who, "lib/actions/jobs.ts#retryDeadJobs", { select: { job_id: jobId } });
    const r = await retry(session);
    expect(r.kind, r.text).toBe("ok");
    expect(r.data).toEqual({ jobs: [expect.objectContaining({ job_id: jobId, kind: SHADOW_JOB, agent_id: "dead", status: "pending" })] });
    const audit = await server.sql.query("SELECT actor_label, details FROM audit_events WHERE action = 'job.retried' AND target_id = $1", [jobId]);
    expect(audit.rows).toEqual([{ actor_label: ADMIN_EMAIL, details: { agent_id: "dead", kind: SHADOW_JOB, attempts: 5, error_class: "ShadowEvaluationError" } }]);
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
