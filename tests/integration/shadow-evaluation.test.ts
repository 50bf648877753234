// Passive shadow evaluation through the API: opt-in, the skills the run's account may receive (agent-wide, its own), separate counters with
// idempotent retries, exclusion of
// source, pre-skill and cross-tenant runs, advisory readiness, and the shared post-store path
// (single and batch ingestion) without re-execution, injection or lifecycle change. The server
// runs without its worker; the worker runs in this process when the test wants jobs evaluated
// (shadow-durability covers worker processes; starting one costs seconds, ten times here).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, type Db } from "@/lib/db/prisma";
import { startWorkerRuntime } from "@/lib/jobs/runtime";
// Registers the learning job handlers (shadow evaluation, promotion cycles), as the worker does.
import "@/lib/learning/jobs";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";
import { call, login } from "../helpers/http";
import { admin, context, getSkill, postRun, postRuns, putAgent, refundRun } from "../helpers/learning";
import { drained, jobCounts, records, shadowAgent, workflow, SHADOW_JOB } from "../helpers/shadow";

let server: TestServer;
let workerDb: Db;
beforeAll(async () => {
  server = await startTestServer({ env: { PROCTOR_WORKER: "0" } });
  workerDb = createPrismaClient(server.databaseUrl, 2);
});
afterAll(async () => {
  await workerDb?.$disconnect();
  await server?.stop();
});

const db = process.env.PROCTOR_TEST_DB ?? "pglite";
// Four minutes ahead: after a skill distilled now, within the 5 minutes a live run may be dated ahead.
const soonAfterNow = () => new Date(Date.now() + 4 * 60_000).toISOString();

async function evaluateAll(agentId: string) {
  const worker = startWorkerRuntime(workerDb);
  try {
    await drained(server, agentId);
  } finally {
    await worker.stop();
  }
}

async function post(agentId: string, body: Record<string, unknown>) {
  const r = await call(server.baseUrl, admin, "POST", `/api/v1/agents/${agentId}/workflows`, body);
  expect(r.status, r.text).toBe(201);
  return r.json as { id: string; workflow_id: string; canonical_hash: string };
}

describe(`passive shadow evaluation (${db})`, () => {
  it("is opt-in: without shadow_evaluation_enabled no job is queued and nothing is observed", async () => {
    await putAgent(server, "optin", { require_shadow: true });
    await postRuns(server, "optin", 5);
    const report = (await call(server.baseUrl, admin, "POST", `/api/v1/agents/optin/promotion-cycles`)).json;
    const skillId = report.promoted[0];
    await postRuns(server, "optin", 3);
    expect(await jobCounts(server, "optin")).toEqual({});
    await evaluateAll("optin");
    expect((await getSkill(server, skillId)).stats.shadow.observations).toBe(0);
    expect(await records(server, skillId)).toEqual([]);
  });

  it("matching, mismatching and failed runs update separate counters; a retried job adds nothing", async () => {
    const { skill } = await shadowAgent(server, "counters", { shadow_evaluation_recent_window: 2, shadow_evaluation_min_similarity: 0.3 });
    const a = await postRun(server, "counters", {});
    const b = await postRun(server, "counters", { failed: true });
    const c = await postRun(server, "counters", { emailPath: true, query: "Refund order ORD-77 status" });
    const d = await post("counters", { ...refundRun({ emailPath: true, query: "Refund order ORD-78 status" }), outcome: "failure" });
    await evaluateAll("counters");

    const s = (await getSkill(server, skill.skill_id)).stats.shadow;
    expect(s).toMatchObject({ observations: 4, trajectory_matches: 2, trajectory_mismatches: 2, matched_successes: 1, matched_failures: 1 });
    // The window keeps the 2 newest (a batch of jobs runs first-in, first-out).
    expect(s.recent_evaluations.map((r: { idempotency_key: string }) => r.idempotency_key)).toEqual([`${c.id}:${skill.skill_id}:v1`, `${d.id}:${skill.skill_id}:v1`]);
    expect(s.last_evaluated_at).toBe(s.recent_evaluations[1].evaluated_at);

    // The versioned record on the workflow.
    const wa = await workflow(server, a.id);
    expect(wa.shadow_evaluations).toEqual([
      {
        idempotency_key: `${a.id}:${skill.skill_id}:v1`,
        skill_id: skill.skill_id,
        skill_version: 1,
        similarity: expect.any(Number),
        expected_canonical_hash: skill.source_canonical_hash,
        observed_canonical_hash: a.canonical_hash,
        trajectory_match: true,
        applicability_mismatch: false,
        matched_trajectory_succeeded: true,
        observed_outcome: "success",
        evaluated_at: expect.any(String),
        evaluator_version: "v1",
      },
    ]);
    expect((await workflow(server, b.id)).shadow_evaluations[0]).toMatchObject({ trajectory_match: true, matched_trajectory_succeeded: false, observed_outcome: "failure" });
    expect((await workflow(server, c.id)).shadow_evaluations[0]).toMatchObject({ trajectory_match: false, applicability_mismatch: true, matched_trajectory_succeeded: null });

    // The same jobs delivered again (a retry after a crash): one record each, the stats unchanged.
    await server.sql.query(
      "INSERT INTO jobs (kind, agent_id, payload, status, run_after) SELECT $1, 'counters', jsonb_build_object('run_id', id), 'PENDING', now() FROM workflows WHERE id = ANY($2)",
      [SHADOW_JOB, [a.id, b.id, c.id, d.id]],
    );
    await evaluateAll("counters");
    expect((await getSkill(server, skill.skill_id)).stats.shadow).toEqual(s);
    expect(await records(server, skill.skill_id)).toHaveLength(4);
    expect((await workflow(server, a.id)).shadow_evaluations).toHaveLength(1);
    expect(await jobCounts(server, "counters")).toEqual({ DONE: 5 + 4 + 4 });
  });

  it("SHADOW skills the run's account may receive are candidates: agent-wide ones and, per account, its own", async () => {
    // Per-account classes (learning_scope "user"): an agent-wide skill from runs without an
    // account, and acct-1's own from its runs.
    const { skill } = await shadowAgent(server, "scope", { learning_scope: "user" });
    const acct1Runs = await postRuns(server, "scope", 5, { userId: "acct-1" });
    const userReport = (await call(server.baseUrl, admin, "POST", `/api/v1/agents/scope/promotion-cycles`)).json;
    const userSkill = userReport.promoted[0];
    expect((await getSkill(server, userSkill)).user_id).toBe("acct-1");
    const other = await shadowAgent(server, "scope-other");
    // An ACTIVE skill is never a shadow candidate.
    await putAgent(server, "scope-active", { shadow_evaluation_enabled: true });
    await postRuns(server, "scope-active", 5);
    const activeSkill = (await call(server.baseUrl, admin, "POST", `/api/v1/agents/scope-active/promotion-cycles`)).json.promoted[0];
    expect((await getSkill(server, activeSkill)).status).toBe("active");

    const noUser = await postRun(server, "scope");
    const withUser = await postRun(server, "scope", { userId: "acct-1" });
    const otherUser = await postRun(server, "scope", { userId: "acct-2" });
    await postRun(server, "scope-active");
    for (const agent of ["scope", "scope-other", "scope-active"]) await evaluateAll(agent);

    // The agent-wide skill observes every account's runs (acct-1's source runs of its own skill too).
    const ids = (rs: { workflow_run_id: string }[]) => rs.map((r) => r.workflow_run_id).sort();
    expect(ids(await records(server, skill.skill_id))).toEqual([...acct1Runs.map((r) => r.id), noUser.id, withUser.id, otherUser.id].sort());
    // acct-1's own skill observes only acct-1's later runs, never acct-2's.
    expect(ids(await records(server, userSkill))).toEqual([withUser.id]);
    expect((await workflow(server, otherUser.id)).shadow_evaluations.map((e: { skill_id: string }) => e.skill_id)).toEqual([skill.skill_id]);
    expect(await records(server, other.skill.skill_id)).toEqual([]);
    expect(await records(server, activeSkill)).toEqual([]);
    expect((await getSkill(server, activeSkill)).stats.shadow.observations).toBe(0);
  });

  it("source runs, runs created before the skill and other tenants' runs are never observed", async () => {
    // Per-account classes: the skill is acct-8's own, so another account's runs are not its to observe.
    await putAgent(server, "exclude", { require_shadow: true, shadow_evaluation_enabled: true, learning_scope: "user" });
    // Source runs stamped minutes ahead: created after the skill, so only the source rule excludes them.
    const sources = [];
    for (let i = 0; i < 5; i++) sources.push(await post("exclude", { ...refundRun({ userId: "acct-8" }), created_at: soonAfterNow() }));
    const report = (await call(server.baseUrl, admin, "POST", `/api/v1/agents/exclude/promotion-cycles`)).json;
    const skill = await getSkill(server, report.promoted[0]);
    expect(skill.source_workflow_ids.sort()).toEqual(sources.map((s) => s.workflow_id).sort());

    const before = await post("exclude", { ...refundRun({ userId: "acct-8" }), created_at: new Date(Date.now() - 3600_000).toISOString() });
    const tenant = await post("exclude", { ...refundRun({ userId: "acct-9" }), created_at: soonAfterNow() });
    const fresh = await post("exclude", { ...refundRun({ userId: "acct-8" }), created_at: soonAfterNow() });
    await evaluateAll("exclude");

    expect((await records(server, skill.skill_id)).map((r) => r.workflow_run_id)).toEqual([fresh.id]);
    for (const w of [...sources, before, tenant]) expect((await workflow(server, w.id)).shadow_evaluations).toEqual([]);
    expect((await getSkill(server, skill.skill_id)).stats.shadow.observations).toBe(1);
  });

  it("readiness is advisory, reports the threshold reasons in order, and activation still works", async () => {
    const { skill } = await shadowAgent(server, "ready", {
      shadow_readiness_min_observations: 3,
      shadow_readiness_min_trajectory_match_rate: 0.9,
      shadow_readiness_min_matched_success_rate: 0.6,
    });
    await postRun(server, "ready");
    await postRun(server, "ready", { failed: true });
    await evaluateAll("ready");
    const r = await call(server.baseUrl, admin, "GET", `/api/v1/skills/${skill.skill_id}/readiness`);
    expect(r.json).toEqual({
      ready: false,
      observations: 2,
      trajectory_match_rate: 1,
      matched_success_rate: 0.5,
      reasons: ["observations 2 < 3", "matched success rate 0.50 < 0.60"],
    });
    // Advisory: nothing changed the skill's status.
    expect((await getSkill(server, skill.skill_id)).status).toBe("shadow");

    await postRuns(server, "ready", 2);
    await evaluateAll("ready");
    const ready = (await call(server.baseUrl, admin, "GET", `/api/v1/skills/${skill.skill_id}/readiness`)).json;
    expect(ready).toEqual({ ready: true, observations: 4, trajectory_match_rate: 1, matched_success_rate: 0.75, reasons: [] });
    expect((await getSkill(server, skill.skill_id)).readiness).toEqual(ready);
    expect((await getSkill(server, skill.skill_id)).status).toBe("shadow");

    const act = await call(server.baseUrl, admin, "POST", `/api/v1/skills/${skill.skill_id}/activate`, { reason: "reviewed" });
    expect(act.status, act.text).toBe(200);
    expect(act.json.status).toBe("active");
    // An ACTIVE skill is no longer observed.
    await postRun(server, "ready");
    await evaluateAll("ready");
    expect((await getSkill(server, skill.skill_id)).stats.shadow.observations).toBe(4);
  });

  it("single and batch ingestion share the post-store path: one evaluation each, no injection, no lifecycle change", async () => {
    const { skill } = await shadowAgent(server, "paths");
    const single = await postRun(server, "paths");
    const batch = await call(server.baseUrl, admin, "POST", `/api/v1/agents/paths/workflows/batch`, { workflows: [refundRun()] });
    expect(batch.status, batch.text).toBe(207);
    await evaluateAll("paths");

    const ids = (await records(server, skill.skill_id)).map((r) => r.workflow_run_id).sort();
    expect(ids).toEqual([single.id, batch.json.results[0].id].sort());
    for (const id of ids) {
      const w = await workflow(server, id);
      expect(w.shadow_evaluations).toHaveLength(1);
      expect(w.skills_activated).toEqual([]);
      expect(w.promoted_skill_id).toBeNull();
    }
    const after = await getSkill(server, skill.skill_id);
    expect(after).toMatchObject({ status: "shadow", promoted_at: null, stats: { activations: 0, successes: 0, failures: 0, deviations: 0 } });
    expect(after.stats.shadow.observations).toBe(2);
    // The shadow skill is never injected.
    expect((await context(server, "paths", { query: "Refund order ORD-5" })).skills).toEqual([]);

    // The review page shows the passive metrics and links each recent evaluation to its run.
    const session = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    const page = await call(server.baseUrl, session, "GET", `/skills?skill=${encodeURIComponent(skill.skill_id)}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Recent evaluations");
    expect(page.text).toContain("Not ready");
    expect(page.text).toContain("observations 2 &lt; 10");
    for (const id of ids) expect(page.text).toContain(`href="/workflows/runs/${id}"`);
  });
});
