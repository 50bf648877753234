// Helpers for the shadow evaluation tests: waiting for the queue and reading what was written
// (worker processes are in ./worker).
import { expect } from "vitest";
import type { TestServer } from "./server";
import { waitFor } from "./server";
import { call } from "./http";
import { admin, cycle, getSkill, postRuns, putAgent } from "./learning";

export const SHADOW_JOB = "shadow_evaluation";

export async function jobCounts(server: TestServer, agentId: string): Promise<Record<string, number>> {
  const r = await server.sql.query("SELECT status::text AS status, count(*)::int AS n FROM jobs WHERE kind = $1 AND agent_id = $2 GROUP BY 1", [SHADOW_JOB, agentId]);
  return Object.fromEntries(r.rows.map((x) => [x.status, x.n]));
}

/** Waits until the agent has no pending or running shadow job. */
export async function drained(server: TestServer, agentId: string, timeoutMs = 60_000) {
  await waitFor(async () => {
    const c = await jobCounts(server, agentId);
    return !c.PENDING && !c.RUNNING;
  }, timeoutMs, () => JSON.stringify(server.output().slice(-2000)));
}

/** Every run evaluated exactly once against the skill, and the stats equal to the records. */
export async function expectEachRunOnce(server: TestServer, agentId: string, skillId: string, runIds: string[]) {
  expect(await jobCounts(server, agentId)).toEqual({ DONE: expect.any(Number) });
  const recs = await records(server, skillId);
  expect(recs.map((r) => r.workflow_run_id).sort()).toEqual([...runIds].sort());
  const dup = await server.sql.query(
    "SELECT workflow_run_id, skill_id, count(*)::int AS n FROM shadow_evaluations WHERE agent_id = $1 GROUP BY 1, 2 HAVING count(*) > 1",
    [agentId],
  );
  expect(dup.rows).toEqual([]);
  const mirrored = await server.sql.query("SELECT count(*)::int AS n FROM workflows WHERE id = ANY($1) AND jsonb_array_length(shadow_evaluations) = 1", [runIds]);
  expect(mirrored.rows[0].n).toBe(runIds.length);
  const s = (await getSkill(server, skillId)).stats.shadow;
  expect(s).toMatchObject({ observations: runIds.length, trajectory_matches: runIds.length, matched_successes: runIds.length, matched_failures: 0 });
}

export async function records(server: TestServer, skillId: string): Promise<{ workflow_run_id: string; record: Record<string, unknown> }[]> {
  const r = await server.sql.query("SELECT workflow_run_id, record FROM shadow_evaluations WHERE skill_id = $1 ORDER BY evaluated_at, id", [skillId]);
  return r.rows;
}

export async function workflow(server: TestServer, id: string) {
  const r = await call(server.baseUrl, admin, "GET", `/api/v1/workflows/${id}`);
  expect(r.status, r.text).toBe(200);
  return r.json;
}

/** An agent with passive evaluation on and one SHADOW skill of the refund class (no user scope). */
export async function shadowAgent(server: TestServer, agentId: string, learning: Record<string, unknown> = {}) {
  await putAgent(server, agentId, { require_shadow: true, shadow_evaluation_enabled: true, ...learning });
  const sources = await postRuns(server, agentId, 5);
  const report = await cycle(server, agentId);
  expect(report.promoted).toHaveLength(1);
  const skill = await getSkill(server, report.promoted[0]);
  expect(skill.status).toBe("shadow");
  return { skill, sources };
}
