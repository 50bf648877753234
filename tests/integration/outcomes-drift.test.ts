// Outcomes and drift through the HTTP API (responses checked against the contract) and
// the console pages: runs that end on a failed step are failures (no skill is learned from them
// and the class shows the error type as its failure mode), and drift is judged on the procedure
// (runs that list a skill but take another path are stored deviations, flagged for review past
// the reference's thresholds at ingestion, audited, and never demote).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";
import { call, login, type Caller } from "../helpers/http";
import { admin, cycle, getSkill, postRun, postRuns, putAgent } from "../helpers/learning";

let server: TestServer;
let console_: Caller;
beforeAll(async () => {
  server = await startTestServer({ env: { PROCTOR_LLM_BASE_URL: "", PROCTOR_LLM_API_KEY: "" } });
  console_ = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
});
afterAll(async () => {
  await server?.stop();
});

const dbKind = process.env.PROCTOR_TEST_DB ?? "pglite";
/** Visible text of a page: React separates adjacent text nodes with comment markers. */
const text = (html: string) => html.replace(/<!-- -->/g, "").replace(/&amp;/g, "&").replace(/&#x27;/g, "'");
const page = async (path: string) => {
  const r = await call(server.baseUrl, console_, "GET", path);
  expect(r.status, path).toBe(200);
  return text(r.text);
};

const CHARGE_TOOLS = [
  { name: "lookup_order", description: "Find an order" },
  { name: "charge_card", description: "Charge the customer's card" },
];
const QUERIES = ["Charge order A1 to my card", "Please bill my card for order B2", "Pay for order C3 with the card on file", "Charge my card for order D4", "Bill order E5 to my card"];

describe(`outcomes in the v1.1 order (${dbKind})`, () => {
  it("five runs whose only step failed with CardDeclined, nothing reported: failures, no skill, CardDeclined as the class's failure mode", async () => {
    await putAgent(server, "declined", {}, CHARGE_TOOLS);
    const runs = [];
    for (const [i, query] of QUERIES.entries()) {
      const r = await call(server.baseUrl, admin, "POST", "/api/v1/agents/declined/workflows", {
        workflow_id: `declined-${i}`,
        query,
        steps: [{ tool: "charge_card", arguments: { order_id: `O${i}`, amount: 10 + i }, error: { type: "CardDeclined", message: "do not honor" } }],
      });
      expect(r.status, r.text).toBe(201);
      expect(r.json).toMatchObject({ outcome: "failure", outcome_source: "step_error" });
      runs.push(r.json);
    }
    const detail = await call(server.baseUrl, admin, "GET", `/api/v1/workflows/${runs[0].id}`);
    expect(detail.json).toMatchObject({ outcome: "failure", outcome_source: "step_error", learning_error: null });

    const classes = (await call(server.baseUrl, admin, "GET", "/api/v1/agents/declined/classes")).json.classes;
    expect(classes).toHaveLength(1);
    expect(classes[0]).toMatchObject({ executions: 5, successes: 0, success_rate: 0, eligible: false });
    const report = await cycle(server, "declined");
    expect(report.promoted).toEqual([]);
    expect((await server.sql.query("SELECT count(*)::int AS n FROM skills WHERE agent_id = 'declined'")).rows[0].n).toBe(0);

    const hash = runs[0].canonical_hash;
    const html = await page(`/workflows?agent=declined&class=${hash}&class_agent=declined`);
    expect(html).toContain("Failure modes observed");
    expect(html).toMatch(/charge_card<\/code> failed with <strong>CardDeclined<\/strong>\s*<span[^>]*>in 5 of the 5 newest failed run\(s\)/);
    const run = await page(`/workflows/runs/${runs[0].id}`);
    expect(run).toContain("decided by last step's error (CardDeclined)");
  });

  it("a reported success does not override a failing outcome_rule, and counts as a failure in the class", async () => {
    const r = await call(server.baseUrl, admin, "PUT", "/api/v1/agents/ruled-success", {
      name: "Ruled",
      tools: CHARGE_TOOLS,
      learning: { promotion_every_n_runs: 0 },
      outcome_rule: { fail_when: [{ tool: "charge_card", path: "accepted", equals: false }] },
    });
    expect(r.status, r.text).toBe(200);
    const batch = await call(server.baseUrl, admin, "POST", "/api/v1/agents/ruled-success/workflows/batch", {
      workflows: QUERIES.map((query, i) => ({
        workflow_id: `ruled-${i}`,
        query,
        steps: [{ tool: "charge_card", arguments: { order_id: `O${i}` }, result: { accepted: i === 0 } }],
        outcome: "success",
      })),
    });
    expect(batch.status).toBe(207);
    expect(batch.json.results.map((x: { outcome_source: string }) => x.outcome_source)).toEqual(["reported", "rule", "rule", "rule", "rule"]);
    const classes = (await call(server.baseUrl, admin, "GET", "/api/v1/agents/ruled-success/classes")).json.classes;
    expect(classes[0]).toMatchObject({ executions: 5, successes: 1 });
    expect((await cycle(server, "ruled-success")).promoted).toEqual([]);
  });
});

describe(`drift judged on the procedure (${dbKind})`, () => {
  it("five failing runs that took another path, each listing the skill, do not demote it: stored deviations, flagged at once, audited", async () => {
    await putAgent(server, "procedure", { min_activations_before_drift_check: 5 });
    await postRuns(server, "procedure", 5);
    const skillId = (await cycle(server, "procedure")).promoted[0];
    expect((await getSkill(server, skillId)).status).toBe("active");

    const others = [];
    for (let i = 0; i < 5; i++) others.push(await postRun(server, "procedure", { emailPath: true, failed: true, skillsActivated: [skillId] }));
    const skill = await getSkill(server, skillId);
    expect(skill.status).toBe("active");
    expect(skill.stats).toMatchObject({ activations: 5, deviations: 5, failures: 5 });
    // None of them entered the drift window.
    expect(skill.stats.recent_outcomes).toEqual([]);
    expect(skill.review_flags).toEqual(["deviation rate 1.00 over 5 activations: applicability likely miscalibrated"]);

    const stored = await server.sql.query("SELECT workflow_run_id, canonical_hash, outcome FROM skill_deviations WHERE skill_id = $1 ORDER BY workflow_run_id", [skillId]);
    expect(stored.rows).toEqual(others.map((o) => ({ workflow_run_id: o.id, canonical_hash: o.canonical_hash, outcome: "FAILURE" })).sort((a, b) => (a.workflow_run_id < b.workflow_run_id ? -1 : 1)));

    // Flagged once: a sixth deviation keeps the flag (with the new rate) without a second audit row.
    await postRun(server, "procedure", { emailPath: true, skillsActivated: [skillId] });
    const audit = await server.sql.query("SELECT actor_type, details FROM audit_events WHERE action = 'skill.deviation_flagged' AND target_id = $1", [skillId]);
    expect(audit.rows).toEqual([
      {
        actor_type: "system",
        details: { agent_id: "procedure", activations: 5, deviations: 5, reason: "deviation rate 1.00 over 5 activations: applicability likely miscalibrated" },
      },
    ]);
    expect((await getSkill(server, skillId)).review_flags).toEqual(["deviation rate 1.00 over 6 activations: applicability likely miscalibrated"]);

    const html = await page(`/skills?skill=${encodeURIComponent(skillId)}`);
    expect(html).toContain("Deviation rate <strong>100%</strong>: 6 of 6 activation(s) took another path.");
    for (const o of others) expect(html).toContain(`/workflows/runs/${o.id}`);
    expect(html).toContain("Needs review: deviation rate 1.00 over 6 activations");
  });

  it("runs that follow the procedure still count in the drift window and demote past the threshold", async () => {
    await putAgent(server, "follows", { min_activations_before_drift_check: 5 });
    await postRuns(server, "follows", 5);
    const skillId = (await cycle(server, "follows")).promoted[0];
    // Deviations first: they neither fill the grace period nor the window.
    for (let i = 0; i < 5; i++) await postRun(server, "follows", { emailPath: true, failed: true, skillsActivated: [skillId] });
    for (let i = 0; i < 4; i++) await postRun(server, "follows", { failed: true, skillsActivated: [skillId] });
    expect((await getSkill(server, skillId)).status).toBe("active");
    await postRun(server, "follows", { failed: true, skillsActivated: [skillId] });
    const skill = await getSkill(server, skillId);
    expect(skill).toMatchObject({ status: "demoted", demotion_reason: "drift: rolling 0.00 vs baseline 1.00" });
    expect(skill.stats).toMatchObject({ activations: 10, deviations: 5 });
    expect(skill.stats.recent_outcomes).toEqual([false, false, false, false, false]);
  });
});
