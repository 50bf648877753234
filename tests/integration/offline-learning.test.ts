// Learning without a model, end to end over the HTTP API on both databases: the template
// distiller refuses classes whose queries share no intent (INSUFFICIENT with its reason, in the
// cycle's report and audit row, no skill stored) and names coherent ones from their shared intent;
// offline retrieval with the default threshold injects a skill for paraphrases of its requests and
// not for near-misses that share one generic word with them (the 20 labeled pairs).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server";
import { call } from "../helpers/http";
import { admin, context, cycle, getSkill, putAgent, refundRun } from "../helpers/learning";
import { COHERENT_CLASSES, NEAR_MISSES, PARAPHRASES, RETRIEVAL_CLASSES, UNCOVERED_QUERIES, VAGUE_CLASSES, type SkillKey } from "../helpers/offline-text";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

const db = process.env.PROCTOR_TEST_DB ?? "pglite";

async function ingest(agentId: string, workflows: unknown[]) {
  const r = await call(server.baseUrl, admin, "POST", `/api/v1/agents/${agentId}/workflows/batch`, { workflows });
  expect(r.status, r.text).toBe(207);
  expect(r.json.results.every((x: { status: number }) => x.status === 201), r.text).toBe(true);
}

const skillCount = async (agentId: string) => (await server.sql.query("SELECT count(*)::int AS n FROM skills WHERE agent_id = $1", [agentId])).rows[0].n;

describe(`offline distillation that refuses (${db})`, () => {
  it.each(VAGUE_CLASSES.map((queries, i) => [i, queries[0], queries] as const))("vague class %i (%s, …) → INSUFFICIENT, no skill", async (i, _, queries) => {
    const agentId = `vague-${i}`;
    await putAgent(server, agentId, { require_shadow: false, auto_activate: true });
    await ingest(agentId, queries.map((query) => refundRun({ query })));
    const report = await cycle(server, agentId);
    expect(report.promoted).toEqual([]);
    expect(report.rejected).toHaveLength(1);
    const [reason] = report.rejected[0].reasons;
    expect(report.rejected[0].reasons).toHaveLength(1);
    expect(reason).toMatch(/^distillation returned INSUFFICIENT: (only \d of the 5 sampled queries carry content terms \(2 needed\)|the queries share no intent: .+)$/);
    expect(await skillCount(agentId)).toBe(0);
    // The audit row of the cycle carries the reason (counts and thresholds only, no request text).
    const audit = await server.sql.query("SELECT details FROM audit_events WHERE action = 'promotion_cycle.ran' AND target_id = $1", [agentId]);
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0].details.insufficient).toEqual([{ canonical_hash: report.rejected[0].canonical_hash, reason: reason.replace("distillation returned INSUFFICIENT: ", "") }]);
    // Its report id aside: the id's random letters may spell a short request such as "hi".
    const text = JSON.stringify({ ...audit.rows[0].details, report_id: undefined });
    for (const q of queries) expect(text).not.toContain(q);
  });

  it.each(COHERENT_CLASSES)("coherent class → a skill named %s", async (name, queries) => {
    const agentId = `coherent-${name}`;
    await putAgent(server, agentId, { require_shadow: false, auto_activate: true });
    await ingest(agentId, queries.map((query) => refundRun({ query })));
    const report = await cycle(server, agentId);
    expect(report.rejected, JSON.stringify(report.rejected)).toEqual([]);
    expect(report.promoted).toHaveLength(1);
    const skill = await getSkill(server, report.promoted[0]);
    expect(skill.name).toBe(name);
    expect(skill.preconditions).toContain(`The request asks for ${name.replace(/-/g, " ")}`);
  });

  it("re-running \"Distill now\" on a vague class refuses again and stores nothing", async () => {
    const hash = (await server.sql.query("SELECT canonical_hash FROM trajectory_classes WHERE agent_id = 'vague-0'")).rows[0].canonical_hash;
    const r = await call(server.baseUrl, admin, "POST", `/api/v1/agents/vague-0/classes/${hash}/distill`);
    expect(r.status, r.text).toBe(200);
    expect(r.json.rejected[0].reasons[0]).toMatch(/^distillation returned INSUFFICIENT: /);
    expect(await skillCount("vague-0")).toBe(0);
  });
});

describe(`precise offline retrieval (${db})`, () => {
  const agentId = "support";
  const names = new Map<SkillKey, string>();

  beforeAll(async () => {
    const tools = [...Object.values(RETRIEVAL_CLASSES).map((c) => ({ name: c.tool, description: c.name })), { name: "lookup_order", description: "Find an order" }];
    await putAgent(server, agentId, { require_shadow: false, auto_activate: true, max_promotions_per_cycle: 10 }, tools);
    let n = 0;
    const step = (tool: string, keys: string) => ({ tool, arguments: Object.fromEntries(keys.split(", ").map((k) => [k, `V-${++n}`])), result: { ok: true } });
    const runs = Object.values(RETRIEVAL_CLASSES).flatMap((c) => c.queries.map((query) => ({ workflow_id: `r-${++n}`, query, steps: [step(c.tool, c.keys)] })));
    // Requests no skill covers, failed (their class never qualifies): they only join the recent queries.
    const others = UNCOVERED_QUERIES.map((query) => ({ workflow_id: `r-${++n}`, query, steps: [step("lookup_order", "order_id")], outcome: "failure" }));
    await ingest(agentId, [...runs, ...others]);
    const report = await cycle(server, agentId);
    expect(report.promoted, JSON.stringify(report)).toHaveLength(Object.keys(RETRIEVAL_CLASSES).length);
    for (const id of report.promoted) {
      const skill = await getSkill(server, id);
      const key = (Object.keys(RETRIEVAL_CLASSES) as SkillKey[]).find((k) => skill.tools.includes(RETRIEVAL_CLASSES[k].tool))!;
      expect(skill.name).toBe(RETRIEVAL_CLASSES[key].name);
      names.set(key, skill.name);
    }
  });

  const injected = async (query: string) => (await context(server, agentId, { query })).skills.map((s: { name: string }) => s.name);

  it.each(PARAPHRASES)("injects the skill for a paraphrase: %s → %s", async (query, key) => {
    expect(await injected(query)).toContain(names.get(key));
  });

  it.each(NEAR_MISSES)("does not inject the skill for a near-miss: %s → %s", async (query, key) => {
    expect(await injected(query)).not.toContain(names.get(key));
  });

  it("injects nothing for a request without content terms", async () => {
    expect(await injected("sure, go ahead")).toEqual([]);
  });
});
