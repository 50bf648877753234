// The full continual-learning lifecycle (reference test_full_lifecycle), shared by the
// template-distiller and the LLM (fake OpenAI server) integration tests.
import { expect } from "vitest";
import type { TestServer } from "./server";
import { call } from "./http";
import { admin, context, cycle, getSkill, postRun, postRuns, putAgent, stampedCount, REFUND_TOOLS } from "./learning";

export async function fullLifecycle(server: TestServer, agentId: string, opts: { template: boolean }) {
  await putAgent(server, agentId);

  // 5 successes + 1 failure of one procedure, each with its own query.
  const runs = await postRuns(server, agentId, 5);
  runs.push(await postRun(server, agentId, { failed: true }));
  const hash = runs[0].canonical_hash;
  expect(new Set(runs.map((r) => r.canonical_hash))).toEqual(new Set([hash]));

  const classes = await call(server.baseUrl, admin, "GET", `/api/v1/agents/${agentId}/classes`);
  const cls = classes.json.classes.find((c: { canonical_hash: string }) => c.canonical_hash === hash);
  expect(cls).toMatchObject({ executions: 6, successes: 5, eligible: true, live_skill: null });
  expect(cls.gates.every((g: { passed: boolean }) => g.passed)).toBe(true);

  // Cycle → ACTIVE v1, stamped.
  const report = await cycle(server, agentId);
  expect(report).toMatchObject({ trigger: "manual", candidates_considered: 1, deferred: [], rejected: [], deprecated: [] });
  expect(report.promoted).toHaveLength(1);
  const v1 = await getSkill(server, report.promoted[0]);
  expect(v1).toMatchObject({ status: "active", version: 1, injection_role: "user", template_distilled: opts.template, source_canonical_hash: hash });
  expect(v1.baseline.executions).toBe(6);
  expect(v1.baseline.success_rate).toBeCloseTo(5 / 6, 5);
  for (const t of REFUND_TOOLS) expect(v1.description).not.toContain(t.name);
  expect(v1.promoted_at).not.toBeNull();
  expect(await stampedCount(server, v1.skill_id)).toBe(6);

  const listed = await call(server.baseUrl, admin, "GET", `/api/v1/agents/${agentId}/promotion-cycles?limit=5`);
  expect(listed.json.reports[0].id).toBe(report.id);

  const covered = (await call(server.baseUrl, admin, "GET", `/api/v1/agents/${agentId}/classes`)).json.classes.find((c: { canonical_hash: string }) => c.canonical_hash === hash);
  expect(covered.eligible).toBe(false);
  expect(covered.live_skill).toEqual({ skill_id: v1.skill_id, status: "active" });
  expect(covered.gates[0]).toMatchObject({ name: "coverage", passed: false });

  // Retrieval excludes the compiled runs unless asked (the audit escape hatch).
  const q = encodeURIComponent("Refund order ORD-1");
  const suppressed = await call(server.baseUrl, admin, "GET", `/api/v1/agents/${agentId}/workflows?query=${q}&limit=20`);
  expect(suppressed.json.workflows.filter((w: { canonical_hash: string }) => w.canonical_hash === hash)).toEqual([]);
  const audit = await call(server.baseUrl, admin, "GET", `/api/v1/agents/${agentId}/workflows?query=${q}&limit=20&exclude_promoted=false`);
  expect(audit.json.workflows.filter((w: { canonical_hash: string }) => w.canonical_hash === hash).length).toBeGreaterThan(0);

  // New runs of the class are stamped at write.
  const fresh = await postRun(server, agentId);
  expect(fresh.promoted_skill_id).toBe(v1.skill_id);

  // Injection: the trigger query retrieves the skill; the raw run of its class is dropped.
  const ctx = await context(server, agentId, {
    query: "Refund order ORD-99999",
    memories: [
      { id: "m1", source: "workflow", workflow_id: runs[0].workflow_id, canonical_hash: hash, text: "raw run" },
      { id: "m2", source: "knowledge_base", text: "Refunds within 30 days." },
    ],
  });
  expect(ctx.skills).toEqual([{ skill_id: v1.skill_id, name: v1.name, version: 1, injection_role: "user", similarity: expect.any(Number) }]);
  expect(ctx.skills[0].similarity).toBeGreaterThanOrEqual(0.7);
  expect(ctx.dropped_memory_ids).toEqual(["m1"]);
  expect(ctx.kept_memory_ids).toEqual(["m2"]);
  expect(ctx.messages[0].content).not.toContain(v1.content);
  expect(ctx.messages[ctx.messages.length - 1].content).toContain(v1.content);
  expect((await context(server, agentId, { query: "What is the weather in Paris?" })).skills).toEqual([]);

  // 6 guided failures → drift demotion at the 5th (grace period 5), stamps cleared.
  for (let i = 0; i < 6; i++) await postRun(server, agentId, { failed: true, skillsActivated: [v1.skill_id] });
  const demoted = await getSkill(server, v1.skill_id);
  expect(demoted.status).toBe("demoted");
  expect(demoted.demotion_reason).toBe("drift: rolling 0.00 vs baseline 0.83");
  // The 6th run found the skill no longer active: it was not attributed.
  expect(demoted.stats).toMatchObject({ activations: 5, successes: 0, failures: 5, deviations: 0 });
  expect(await stampedCount(server, v1.skill_id)).toBe(0);
  expect((await context(server, agentId, { query: "Refund order ORD-99999" })).skills).toEqual([]);

  const after = (await call(server.baseUrl, admin, "GET", `/api/v1/agents/${agentId}/classes`)).json.classes.find((c: { canonical_hash: string }) => c.canonical_hash === hash);
  expect(after.eligible).toBe(false);
  expect(after.live_skill).toBeNull();
  expect(after.gates.find((g: { name: string }) => g.name === "executions")).toMatchObject({ passed: false, detail: "1 / 5 runs since retirement" });

  // 5 post-demotion successes → v2 ACTIVE, gated and baselined on the window after the demotion only.
  await postRuns(server, agentId, 5);
  const report2 = await cycle(server, agentId);
  expect(report2.promoted).toHaveLength(1);
  const v2 = await getSkill(server, report2.promoted[0]);
  expect(v2).toMatchObject({ status: "active", version: 2, source_canonical_hash: hash });
  expect(v2.baseline.executions).toBe(6);
  expect(v2.baseline.success_rate).toBeCloseTo(5 / 6, 5);
  expect(await stampedCount(server, v2.skill_id)).toBe(6 + 1 + 6 + 5);
  return { hash, v1: demoted, v2 };
}
