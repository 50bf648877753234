import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, waitFor, type TestServer } from "../helpers/server";
import { anonymous, call } from "../helpers/http";
import { admin, context, cycle, getSkill, postRun, postRuns, putAgent, refundRun, stampedCount, REFUND_TOOLS } from "../helpers/learning";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

const db = process.env.PROCTOR_TEST_DB ?? "pglite";

describe(`shadow review and activation (${db})`, () => {
  it("a developer-authority SHADOW skill is never stamped, injected or monitored until activated", async () => {
    await putAgent(server, "shadow", { require_shadow: true, skill_injection_role: "developer" });
    const runs = await postRuns(server, "shadow", 5);
    const report = await cycle(server, "shadow");
    const skill = await getSkill(server, report.promoted[0]);
    expect(skill).toMatchObject({ status: "shadow", injection_role: "developer", promoted_at: null });
    expect(await stampedCount(server, skill.skill_id)).toBe(0);
    expect((await context(server, "shadow", { query: "Refund order ORD-5" })).skills).toEqual([]);

    // A SHADOW id reported by mistake is ignored by the monitor.
    const r = await postRun(server, "shadow", { skillsActivated: [skill.skill_id] });
    expect(r.promoted_skill_id).toBeNull();
    expect((await getSkill(server, skill.skill_id)).stats.activations).toBe(0);

    const readiness = await call(server.baseUrl, admin, "GET", `/api/v1/skills/${skill.skill_id}/readiness`);
    expect(readiness.json).toEqual({
      ready: false,
      observations: 0,
      trajectory_match_rate: 0,
      matched_success_rate: 0,
      reasons: ["observations 0 < 10", "trajectory match rate 0.00 < 0.80", "matched success rate 0.00 < 0.80"],
    });
    const shadows = await call(server.baseUrl, admin, "GET", `/api/v1/agents/shadow/skills?status=shadow`);
    expect(shadows.json.skills.map((s: { skill_id: string }) => s.skill_id)).toEqual([skill.skill_id]);
    expect(shadows.json.skills[0].stats.shadow).toMatchObject({ observations: 0 });

    // Demoting a shadow skill is refused.
    const demote = await call(server.baseUrl, admin, "POST", `/api/v1/skills/${skill.skill_id}/demote`, { reason: "no" });
    expect(demote.status).toBe(409);
    expect(demote.json.code).toBe("invalid_state");

    const vectorsBefore = await server.sql.query("SELECT embedding, query_embeddings, content FROM skills WHERE id = $1", [skill.skill_id]);
    expect(vectorsBefore.rows[0].embedding.length).toBeGreaterThan(0);
    expect(vectorsBefore.rows[0].query_embeddings).toHaveLength(skill.queries.length);

    // Activation: explicit review, reason recorded, stamps backfilled, injected as a developer message.
    const act = await call(server.baseUrl, admin, "POST", `/api/v1/skills/${skill.skill_id}/activate`, { injection_role: "developer", reason: "reviewed the procedure" });
    expect(act.status, act.text).toBe(200);
    expect(act.json).toMatchObject({ status: "active", injection_role: "developer", activation_reason: "reviewed the procedure" });
    expect(act.json.promoted_at).not.toBeNull();
    expect(await stampedCount(server, skill.skill_id)).toBe(runs.length + 1);
    const ctx = await context(server, "shadow", { query: "Refund order ORD-5", system_prompt: "Be kind." });
    expect(ctx.skills[0]).toMatchObject({ skill_id: skill.skill_id, injection_role: "developer" });
    expect(ctx.messages.map((m: { role: string }) => m.role)).toEqual(["system", "developer", "user"]);
    expect(ctx.messages[1].content).toContain(skill.content);
    expect(ctx.messages[2].content).not.toContain(skill.content);
    const anthropic = await context(server, "shadow", { query: "Refund order ORD-5", provider: "anthropic", system_prompt: "Be kind." });
    expect(anthropic.messages.map((m: { role: string }) => m.role)).toEqual(["user"]);
    expect(anthropic.system).toContain(skill.content);
    const compat = await context(server, "shadow", { query: "Refund order ORD-5", provider: "openai-compatible" });
    expect(compat.messages.map((m: { role: string }) => m.role)).toEqual(["system", "user"]);
    const ollama = await context(server, "shadow", { query: "Refund order ORD-5", provider: "ollama" });
    expect(ollama.messages.map((m: { role: string }) => m.role)).toEqual(["system", "system", "user"]);
    const gemini = await context(server, "shadow", { query: "Refund order ORD-5", provider: "gemini", system_prompt: "Be kind.", history: [{ role: "user", content: "hi" }, { role: "assistant", content: "hello" }] });
    expect(gemini.messages.map((m: { role: string }) => m.role)).toEqual(["user", "model", "user"]);
    expect(gemini.system_instruction.startsWith("Be kind.")).toBe(true);
    expect(gemini.system_instruction).toContain(skill.content);
    expect(gemini.system).toBeUndefined();
    for (const provider of ["huggingface", "mlx"]) {
      const local = await context(server, "shadow", { query: "Refund order ORD-5", provider, system_prompt: "Be kind." });
      expect(local.messages.map((m: { role: string }) => m.role)).toEqual(["system", "user"]);
      expect(local.messages[0].content).toContain(skill.content);
      expect(local.system_instruction).toBeUndefined();
    }
    expect((await call(server.baseUrl, admin, "POST", "/api/v1/agents/shadow/context", { query: "Refund order ORD-5", provider: "cohere" })).status).toBe(400);

    // Activating again is an invalid state; the audit trail has the key as actor.
    const again = await call(server.baseUrl, admin, "POST", `/api/v1/skills/${skill.skill_id}/activate`);
    expect(again.status).toBe(409);
    expect(again.json.code).toBe("invalid_state");
    const audit = await server.sql.query("SELECT actor_type, details FROM audit_events WHERE action = 'skill.activated' AND target_id = $1", [skill.skill_id]);
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0]).toMatchObject({ actor_type: "api_key", details: { injection_role: "developer", reason: "reviewed the procedure" } });

    // Manual demotion: active only, reason required, stamps cleared through the index.
    expect((await call(server.baseUrl, admin, "POST", `/api/v1/skills/${skill.skill_id}/demote`, {})).status).toBe(400);
    const dem = await call(server.baseUrl, admin, "POST", `/api/v1/skills/${skill.skill_id}/demote`, { reason: "manually demoted after review" });
    expect(dem.status, dem.text).toBe(200);
    expect(dem.json).toMatchObject({ status: "demoted", demotion_reason: "manually demoted after review" });
    expect(await stampedCount(server, skill.skill_id)).toBe(0);
    expect((await call(server.baseUrl, admin, "POST", `/api/v1/skills/${skill.skill_id}/demote`, { reason: "again" })).status).toBe(409);
    expect((await call(server.baseUrl, admin, "POST", `/api/v1/skills/${skill.skill_id}/activate`)).status).toBe(409);
    // Lifecycle changes patch status and stats only: the vectors and the document are untouched.
    const vectorsAfter = await server.sql.query("SELECT embedding, query_embeddings, content FROM skills WHERE id = $1", [skill.skill_id]);
    expect(vectorsAfter.rows[0]).toEqual(vectorsBefore.rows[0]);
    const events = await server.sql.query("SELECT event, reason FROM skill_events WHERE skill_id = $1 ORDER BY id", [skill.skill_id]);
    expect(events.rows).toEqual([
      { event: "skill_candidate_created", reason: "manual promotion" },
      { event: "skill_activated", reason: "reviewed the procedure" },
      { event: "skill_demoted", reason: "manually demoted after review" },
    ]);
    const demoteAudit = await server.sql.query("SELECT actor_type, details FROM audit_events WHERE action = 'skill.demoted' AND target_id = $1", [skill.skill_id]);
    expect(demoteAudit.rows).toEqual([{ actor_type: "api_key", details: expect.objectContaining({ reason: "manually demoted after review" }) }]);
  });

  it("developer authority at activation needs an agent that requires shadow review", async () => {
    await putAgent(server, "roles", { require_shadow: true });
    await postRuns(server, "roles", 5);
    const skillId = (await cycle(server, "roles")).promoted[0];
    expect((await getSkill(server, skillId)).status).toBe("shadow");
    // The agent's posture changes after the skill was distilled: developer authority is now refused.
    await putAgent(server, "roles", { require_shadow: false });
    const r = await call(server.baseUrl, admin, "POST", `/api/v1/skills/${skillId}/activate`, { injection_role: "developer" });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe("validation_error");
    expect((await getSkill(server, skillId)).status).toBe("shadow");
    const ok = await call(server.baseUrl, admin, "POST", `/api/v1/skills/${skillId}/activate`, { injection_role: "user" });
    expect(ok.json).toMatchObject({ status: "active", injection_role: "user" });
  });

  it("only admins reach the admin endpoints; unknown skills are 404", async () => {
    expect((await call(server.baseUrl, anonymous, "POST", `/api/v1/agents/shadow/promotion-cycles`)).status).toBe(401);
    expect((await call(server.baseUrl, admin, "GET", `/api/v1/skills/nope`)).status).toBe(404);
    expect((await call(server.baseUrl, admin, "POST", `/api/v1/skills/nope/activate`)).status).toBe(404);
    expect((await call(server.baseUrl, admin, "POST", `/api/v1/agents/nobody/promotion-cycles`)).status).toBe(404);
  });
});

describe(`promotion cycle and distill now (${db})`, () => {
  it("gates are never bypassed: distill skips an ineligible or unknown class, promotes an eligible one", async () => {
    await putAgent(server, "distill");
    const two = await postRuns(server, "distill", 2, { emailPath: true });
    const r1 = await call(server.baseUrl, admin, "POST", `/api/v1/agents/distill/classes/${two[0].canonical_hash}/distill`);
    expect(r1.status, r1.text).toBe(200);
    expect(r1.json).toMatchObject({ trigger: "distill", promoted: [], skipped: [{ canonical_hash: two[0].canonical_hash, user_id: null, reason: "executions 2 < 5" }] });
    const unknown = await call(server.baseUrl, admin, "POST", `/api/v1/agents/distill/classes/${"0".repeat(64)}/distill`);
    expect(unknown.json.skipped).toEqual([{ canonical_hash: "0".repeat(64), user_id: null, reason: "unknown trajectory class" }]);
    const five = await postRuns(server, "distill", 5);
    const r2 = await call(server.baseUrl, admin, "POST", `/api/v1/agents/distill/classes/${five[0].canonical_hash}/distill`);
    expect(r2.json.promoted).toHaveLength(1);
    expect(r2.json.candidates_considered).toBe(1);
    const audit = await server.sql.query("SELECT count(*)::int AS n FROM audit_events WHERE action = 'class.distilled' AND target_id = 'distill'");
    expect(audit.rows[0].n).toBe(3);
  });

  it("per-account classes never mix users, and a skill serves only its own user scope", async () => {
    await putAgent(server, "tenants", { learning_scope: "user" });
    await postRuns(server, "tenants", 3, { userId: "acct-a" });
    await postRuns(server, "tenants", 3, { userId: "acct-b" });
    await postRuns(server, "tenants", 3);
    const report = await cycle(server, "tenants");
    expect(report.promoted).toEqual([]);
    expect(report.skipped.map((s: { user_id: string | null; reason: string }) => [s.user_id, s.reason]).sort()).toEqual([
      ["acct-a", "executions 3 < 5"],
      ["acct-b", "executions 3 < 5"],
      [null, "executions 3 < 5"],
    ].sort());
    await postRuns(server, "tenants", 2, { userId: "acct-a" });
    const r2 = await cycle(server, "tenants");
    expect(r2.promoted).toHaveLength(1);
    // Classes with no new runs since the previous cycle are not news.
    expect(r2.skipped).toEqual([]);
    const skill = await getSkill(server, r2.promoted[0]);
    expect(skill.user_id).toBe("acct-a");
    expect(await stampedCount(server, skill.skill_id)).toBe(5);
    expect((await context(server, "tenants", { query: "Refund order ORD-1", user_id: "acct-a" })).skills).toHaveLength(1);
    expect((await context(server, "tenants", { query: "Refund order ORD-1", user_id: "acct-b" })).skills).toEqual([]);
    expect((await context(server, "tenants", { query: "Refund order ORD-1" })).skills).toEqual([]);
    // Agent scope: another agent never sees it.
    await putAgent(server, "tenants-other");
    expect((await context(server, "tenants-other", { query: "Refund order ORD-1", user_id: "acct-a" })).skills).toEqual([]);
    // A run of another user in the same class is not stamped by acct-a's skill.
    expect((await postRun(server, "tenants", { userId: "acct-b" })).promoted_skill_id).toBeNull();
    expect((await postRun(server, "tenants", { userId: "acct-a" })).promoted_skill_id).toBe(skill.skill_id);
  });

  it("ranks eligible classes, caps promotions per cycle and lists the rest as deferred", async () => {
    await putAgent(server, "capped", { max_promotions_per_cycle: 1 });
    const refunds = await postRuns(server, "capped", 8);
    const emails = await postRuns(server, "capped", 5, { emailPath: true });
    const report = await cycle(server, "capped");
    expect(report.candidates_considered).toBe(2);
    expect(report.promoted).toHaveLength(1);
    // More executions rank first.
    expect((await getSkill(server, report.promoted[0])).source_canonical_hash).toBe(refunds[0].canonical_hash);
    expect(report.deferred).toEqual([emails[0].canonical_hash]);
    const next = await cycle(server, "capped");
    expect((await getSkill(server, next.promoted[0])).source_canonical_hash).toBe(emails[0].canonical_hash);
    expect(next.deferred).toEqual([]);
  });

  it("the staleness sweep deprecates ACTIVE and SHADOW skills whose tool was removed", async () => {
    await putAgent(server, "stale", { require_shadow: true });
    await postRuns(server, "stale", 5);
    await postRuns(server, "stale", 5, { emailPath: true });
    const report = await cycle(server, "stale");
    expect(report.promoted).toHaveLength(2);
    const skills = await Promise.all(report.promoted.map((id: string) => getSkill(server, id)));
    const refund = skills.find((s) => s.tools.includes("issue_refund"))!;
    const email = skills.find((s) => s.tools.includes("send_email"))!;
    const act = await call(server.baseUrl, admin, "POST", `/api/v1/skills/${refund.skill_id}/activate`, {});
    expect(act.status).toBe(200);
    expect(await stampedCount(server, refund.skill_id)).toBe(5);

    // An agent update retires them at once (review-gates.test.ts); the sweep catches toolboxes
    // changed without one, as stored by versions before that.
    const kept = REFUND_TOOLS.filter((t) => t.name !== "send_email" && t.name !== "issue_refund");
    await server.sql.query("UPDATE agents SET tools = $1 WHERE id = 'stale'", [JSON.stringify(kept)]);
    const sweep = await cycle(server, "stale");
    expect([...sweep.deprecated].sort()).toEqual([refund.skill_id, email.skill_id].sort());
    expect(await getSkill(server, refund.skill_id)).toMatchObject({ status: "deprecated", demotion_reason: "tool removed: issue_refund" });
    expect(await getSkill(server, email.skill_id)).toMatchObject({ status: "deprecated", demotion_reason: "tool removed: send_email" });
    expect(await stampedCount(server, refund.skill_id)).toBe(0);
  });

  it("two cycles started at once for one agent produce one set of skills", async () => {
    await putAgent(server, "race");
    await postRuns(server, "race", 5);
    await postRuns(server, "race", 5, { emailPath: true });
    const results = await Promise.all([0, 1, 2].map(() => call(server.baseUrl, admin, "POST", `/api/v1/agents/race/promotion-cycles`)));
    for (const r of results) expect([200, 409]).toContain(r.status);
    expect(results.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(1);
    const conflicts = results.filter((r) => r.status === 409);
    for (const c of conflicts) expect(c.json.code).toBe("conflict");
    const skills = await server.sql.query("SELECT source_canonical_hash, count(*)::int AS n FROM skills WHERE agent_id = 'race' GROUP BY 1");
    expect(skills.rows.map((r) => r.n)).toEqual([1, 1]);
    const promoted = results.filter((r) => r.status === 200).flatMap((r) => r.json.promoted);
    expect(promoted).toHaveLength(2);
  });
});

describe(`monitoring at ingestion (${db})`, () => {
  it("50 runs posted in parallel for one active skill give exactly 50 activations", async () => {
    await putAgent(server, "parallel", { min_activations_before_drift_check: 1000 });
    await postRuns(server, "parallel", 5);
    const skillId = (await cycle(server, "parallel")).promoted[0];
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => call(server.baseUrl, admin, "POST", `/api/v1/agents/parallel/workflows`, refundRun({ failed: i % 5 === 0, skillsActivated: [skillId] }))),
    );
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(201));
    const skill = await getSkill(server, skillId);
    expect(skill.stats).toMatchObject({ activations: 50, successes: 40, failures: 10, deviations: 0 });
    expect(skill.stats.recent_outcomes).toHaveLength(10);
    expect(await stampedCount(server, skillId)).toBe(55);
  });

  it("flags a skill whose runs mostly take another path at once, without demoting it", async () => {
    await putAgent(server, "deviate");
    await postRuns(server, "deviate", 5);
    const skillId = (await cycle(server, "deviate")).promoted[0];
    for (let i = 0; i < 6; i++) await postRun(server, "deviate", { emailPath: true, skillsActivated: [skillId] });
    const skill = await getSkill(server, skillId);
    expect(skill.status).toBe("active");
    expect(skill.stats).toMatchObject({ activations: 6, deviations: 6, successes: 6 });
    expect(skill.review_flags).toEqual(["deviation rate 1.00 over 6 activations: applicability likely miscalibrated"]);
    const report = await cycle(server, "deviate");
    expect(report.review_flags.some((f: string) => f.includes(skillId) && f.includes("miscalibrated"))).toBe(true);
  });

  it("a failing monitor never breaks ingestion: the run is stored, the bookkeeping rolled back", async () => {
    await putAgent(server, "faulty");
    await postRuns(server, "faulty", 5);
    const skillId = (await cycle(server, "faulty")).promoted[0];
    // Fault injection in the database: any update of this agent's skills fails.
    await server.sql.query(`CREATE FUNCTION h4_fail_skill_update() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'injected'; END; $$ LANGUAGE plpgsql`);
    await server.sql.query(`CREATE TRIGGER h4_fail BEFORE UPDATE ON skills FOR EACH ROW WHEN (OLD.agent_id = 'faulty') EXECUTE FUNCTION h4_fail_skill_update()`);
    try {
      const r = await postRun(server, "faulty", { skillsActivated: [skillId] });
      const stored = await server.sql.query("SELECT promoted_skill_id FROM workflows WHERE id = $1", [r.id]);
      expect(stored.rows).toHaveLength(1);
      expect((await getSkill(server, skillId)).stats.activations).toBe(0);
    } finally {
      await server.sql.query("DROP TRIGGER h4_fail ON skills");
      await server.sql.query("DROP FUNCTION h4_fail_skill_update()");
    }
    await postRun(server, "faulty", { skillsActivated: [skillId] });
    expect((await getSkill(server, skillId)).stats.activations).toBe(1);
  });

  it("ignores ids of other agents' skills and unknown ids", async () => {
    await putAgent(server, "other-agent");
    const deviate = (await call(server.baseUrl, admin, "GET", `/api/v1/agents/deviate/skills?status=active`)).json.skills[0];
    await postRun(server, "other-agent", { skillsActivated: [deviate.skill_id, "sk_unknown"] });
    expect((await getSkill(server, deviate.skill_id)).stats.activations).toBe(deviate.stats.activations);
  });

  it("runs a cadence cycle in the background worker every promotion_every_n_runs runs", async () => {
    await putAgent(server, "cadence", { promotion_every_n_runs: 6 });
    await postRuns(server, "cadence", 5);
    const jobs = await server.sql.query("SELECT count(*)::int AS n FROM jobs WHERE kind = 'promotion_cycle' AND agent_id = 'cadence'");
    expect(jobs.rows[0].n).toBe(0);
    await postRun(server, "cadence");
    await waitFor(async () => {
      const r = await call(server.baseUrl, admin, "GET", `/api/v1/agents/cadence/promotion-cycles`);
      return r.json.reports.length > 0;
    }, 30_000);
    const reports = (await call(server.baseUrl, admin, "GET", `/api/v1/agents/cadence/promotion-cycles`)).json.reports;
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ trigger: "cadence" });
    expect(reports[0].promoted).toHaveLength(1);
    const audit = await server.sql.query("SELECT actor_type FROM audit_events WHERE action = 'promotion_cycle.ran' AND target_id = 'cadence'");
    expect(audit.rows).toEqual([{ actor_type: "system" }]);
  });
});
