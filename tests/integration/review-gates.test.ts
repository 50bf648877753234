// The review gates, against the real server on both databases:
// - review first: a new agent's skills wait for an admin (SHADOW by default, CANDIDATE without
//   shadow review) and go ACTIVE at once only with the explicit auto_activate opt-out; the
//   migration keeps existing agents' stored require_shadow;
// - an agent update that drops a tool deprecates every live skill using it in the same request,
//   so /context stops injecting it at once, and re-adding the tool revives nothing;
// - require_qualification: activation is refused (nothing written) until the skill's ledger
//   procedure is ACTIVE; qualification starts over the API with the admin scope; a ledger
//   suspension of the procedure demotes the ACTIVE skill in the suspending transaction, with a
//   typed skill.demoted audit row.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";
import { call, login, withKey, type Caller } from "../helpers/http";
import { callAction } from "../helpers/actions";
import { admin, context, cycle, getSkill, postRuns, putAgent, REFUND_TOOLS, stampedCount } from "../helpers/learning";
import { fixtureEvaluation, ledgerClient } from "../helpers/ledger";
import { evaluatorKeys } from "../helpers/keys";
import { parseAuditEvent } from "@/lib/audit/events";

let server: TestServer;
let session: Caller;
let ingest: Caller;
let evaluators: (evaluatorId: string) => Promise<Caller>;

const MODEL = "gpt-4o-2024-08-06";
const LEDGER = { ledger_qualification_trials: 4, ledger_confidence_delta: 0.4, ledger_min_improvement: 0.1, ledger_evaluator_id: "ci-evaluator", ledger_max_failure_streak: 2 };
const evaluation = (k: number, phase: "qualification" | "monitoring", good = true) =>
  fixtureEvaluation(k, phase, { evaluator_id: "ci-evaluator", evaluation_contract: "proctor-skill-paired-v1", evidence_ref: `suite:held-out-${k}`, baseline_utility: good ? 0 : 1, candidate_utility: good ? 1 : 0 });
const REFUND_QUERY = { query: "Refund order ORD-55555" };

/** PUT as an agent would send it: no test defaults, so the product's defaults apply. */
const declare = (id: string, learning: Record<string, unknown>, tools: object[] = REFUND_TOOLS) =>
  call(server.baseUrl, admin, "PUT", `/api/v1/agents/${id}`, { name: `Agent ${id}`, tools, learning: { promotion_every_n_runs: 0, ...learning } });
const auditCount = async (action: string, targetId: string) =>
  (await server.sql.query("SELECT count(*)::int AS n FROM audit_events WHERE action = $1 AND target_id = $2", [action, targetId])).rows[0].n as number;
const skillsVersion = async (agentId: string) => (await server.sql.query("SELECT skills_version FROM agents WHERE id = $1", [agentId])).rows[0].skills_version as number;
const activateAction = (skillId: string) => callAction(server, session, "lib/actions/skills.ts#activateSkill", { skill_id: skillId, reason: "reviewed the procedure" });

async function distilled(agentId: string, opts: { emailPath?: boolean } = {}): Promise<string> {
  await postRuns(server, agentId, 5, opts);
  const report = await cycle(server, agentId);
  expect(report.promoted, JSON.stringify(report)).toHaveLength(1);
  return report.promoted[0];
}

beforeAll(async () => {
  server = await startTestServer();
  session = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  const key = await callAction(server, session, "lib/actions/api-keys.ts#createApiKey", { name: "ingest-only", scopes: ["ingest"] });
  expect(key.kind, key.text).toBe("ok");
  ingest = withKey(key.data.secret);
  evaluators = evaluatorKeys(server, session);
});
afterAll(async () => {
  await server?.stop();
});

describe(`review first (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("a new agent's skills wait in shadow, are not injected, and go active by an admin's activation", async () => {
    const put = await declare("rf-default", {});
    expect(put.status, put.text).toBe(200);
    expect(put.json.learning).toMatchObject({ require_shadow: true, auto_activate: false, require_qualification: false });
    const skillId = await distilled("rf-default");
    expect((await getSkill(server, skillId)).status).toBe("shadow");
    expect((await context(server, "rf-default", REFUND_QUERY)).skills).toEqual([]);
    expect(await stampedCount(server, skillId)).toBe(0);

    const activated = await activateAction(skillId);
    expect(activated.kind, activated.text).toBe("ok");
    expect((await getSkill(server, skillId)).status).toBe("active");
    expect((await context(server, "rf-default", REFUND_QUERY)).skills.map((s: { skill_id: string }) => s.skill_id)).toEqual([skillId]);
  });

  it("without shadow review a skill waits as a candidate; only the explicit opt-out activates it at once", async () => {
    expect((await declare("rf-candidate", { require_shadow: false })).json.learning).toMatchObject({ require_shadow: false, auto_activate: false });
    const candidate = await distilled("rf-candidate");
    expect((await getSkill(server, candidate)).status).toBe("candidate");
    expect((await context(server, "rf-candidate", REFUND_QUERY)).skills).toEqual([]);
    const events = await server.sql.query("SELECT event FROM skill_events WHERE skill_id = $1", [candidate]);
    expect(events.rows).toEqual([{ event: "skill_candidate_created" }]);

    expect((await declare("rf-auto", { require_shadow: false, auto_activate: true })).status).toBe(200);
    const auto = await distilled("rf-auto");
    expect((await getSkill(server, auto)).status).toBe("active");
    expect((await context(server, "rf-auto", REFUND_QUERY)).skills).toHaveLength(1);
  });

  it("refuses contradictory review settings with problem+json and a readable action error, changing nothing", async () => {
    const expectRefused = async (learning: Record<string, unknown>, field: string) => {
      const r = await declare("rf-default", learning);
      expect(r.status, r.text).toBe(400);
      expect(r.headers.get("content-type")).toContain("application/problem+json");
      expect(r.json.code).toBe("validation_error");
      expect(r.json.errors.map((e: { path: string }) => e.path)).toContain(`/learning/${field}`);
    };
    await expectRefused({ auto_activate: true }, "auto_activate");
    await expectRefused({ require_qualification: true, require_shadow: false }, "require_qualification");
    await expectRefused({ auto_activate: "yes" }, "auto_activate");
    await expectRefused({ require_qualification: 1 }, "require_qualification");

    const current = (await call(server.baseUrl, admin, "GET", "/api/v1/agents/rf-default")).json.learning;
    const saved = await callAction(server, session, "lib/actions/learning.ts#saveLearningSettings", { agent_id: "rf-default", learning: { ...current, auto_activate: true } });
    expect(saved.kind).toBe("validation_error");
    expect(saved.error!.message).toBeTruthy();
    expect(saved.error!.fields).toContainEqual({ path: "/learning/auto_activate", message: expect.stringContaining("require_shadow=false") });
    expect((await call(server.baseUrl, admin, "GET", "/api/v1/agents/rf-default")).json.learning).toEqual(current);
    expect(await auditCount("learning_config.updated", "rf-default")).toBe(0);

    const ok = await callAction(server, session, "lib/actions/learning.ts#saveLearningSettings", { agent_id: "rf-default", learning: { ...current, require_qualification: true } });
    expect(ok.kind, ok.text).toBe("ok");
    const row = await server.sql.query("SELECT details FROM audit_events WHERE action = 'learning_config.updated' AND target_id = 'rf-default'");
    expect(row.rows[0].details.changed).toEqual({ require_qualification: { from: false, to: true } });
  });

  it("the migration keeps an existing agent's stored require_shadow (absent meant false) and touches nothing else", async () => {
    await server.sql.query(
      `INSERT INTO agents (id, name, learning, updated_at) VALUES
        ('legacy-default', 'Legacy', '{"min_executions": 3}', now()),
        ('legacy-shadow', 'Legacy shadow', '{"require_shadow": true, "min_executions": 4}', now())`,
    );
    const dir = path.join(process.cwd(), "prisma/migrations");
    const migration = readdirSync(dir).find((n) => n.endsWith("_review_first"))!;
    await server.sql.query(readFileSync(path.join(dir, migration, "migration.sql"), "utf8"));
    // It also defines the suspension trigger that a later migration drops (the demotion is the
    // evaluation's TypeScript): apply that one again too, as a deployment has it.
    const dropTrigger = readdirSync(dir).find((n) => n.endsWith("_ledger_demotion_in_app"))!;
    await server.sql.query(readFileSync(path.join(dir, dropTrigger, "migration.sql"), "utf8"));
    const rows = await server.sql.query("SELECT id, learning FROM agents WHERE id LIKE 'legacy-%' ORDER BY id");
    expect(rows.rows).toEqual([
      { id: "legacy-default", learning: { min_executions: 3, require_shadow: false } },
      { id: "legacy-shadow", learning: { require_shadow: true, min_executions: 4 } },
    ]);
    expect((await call(server.baseUrl, admin, "GET", "/api/v1/agents/legacy-default")).json.learning).toMatchObject({ require_shadow: false, auto_activate: false });
  });
});

describe(`a removed tool retires its skills at once (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  let refund: string;
  let email: string;
  let shadow: string;

  beforeAll(async () => {
    await putAgent(server, "tr");
    refund = await distilled("tr");
    email = await distilled("tr", { emailPath: true });
    await putAgent(server, "tr-shadow", { require_shadow: true });
    shadow = await distilled("tr-shadow");
    expect((await getSkill(server, refund)).tools).toEqual(["lookup_order", "issue_refund"]);
    expect((await context(server, "tr", REFUND_QUERY)).skills.map((s: { skill_id: string }) => s.skill_id)).toContain(refund);
  });

  it("a bad agent update changes nothing", async () => {
    const r = await call(server.baseUrl, admin, "PUT", "/api/v1/agents/tr", { name: "Agent tr", tools: [{ description: "no name" }] });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe("validation_error");
    expect((await getSkill(server, refund)).status).toBe("active");
  });

  it("PUT without issue_refund deprecates the skills using it in that request, audited once each; /context stops injecting them", async () => {
    const before = await skillsVersion("tr");
    const withoutRefund = REFUND_TOOLS.filter((t) => t.name !== "issue_refund");
    await putAgent(server, "tr", {}, withoutRefund);
    await putAgent(server, "tr-shadow", { require_shadow: true }, withoutRefund);

    const retired = await getSkill(server, refund);
    expect(retired).toMatchObject({ status: "deprecated", demotion_reason: "tool removed: issue_refund" });
    expect((await getSkill(server, shadow)).status).toBe("deprecated");
    expect((await getSkill(server, email)).status).toBe("active");
    expect(await stampedCount(server, refund)).toBe(0);
    expect(await skillsVersion("tr")).toBeGreaterThan(before);
    expect((await context(server, "tr", REFUND_QUERY)).skills.map((s: { skill_id: string }) => s.skill_id)).not.toContain(refund);

    const audit = await server.sql.query("SELECT actor_type, target_id, details FROM audit_events WHERE action = 'skill.deprecated' ORDER BY id");
    expect(audit.rows).toEqual([
      { actor_type: "api_key", target_id: refund, details: { agent_id: "tr", reason: "tool removed: issue_refund", trigger: "agent_update" } },
      { actor_type: "api_key", target_id: shadow, details: { agent_id: "tr-shadow", reason: "tool removed: issue_refund", trigger: "agent_update" } },
    ]);
    const events = await server.sql.query("SELECT event, reason FROM skill_events WHERE skill_id = $1 AND event = 'skill_deprecated'", [refund]);
    expect(events.rows).toEqual([{ event: "skill_deprecated", reason: "tool removed: issue_refund" }]);
  });

  it("re-adding the tool revives nothing", async () => {
    await putAgent(server, "tr");
    expect((await getSkill(server, refund)).status).toBe("deprecated");
    expect((await context(server, "tr", REFUND_QUERY)).skills.map((s: { skill_id: string }) => s.skill_id)).not.toContain(refund);
    expect(await auditCount("skill.deprecated", refund)).toBe(1);
    const activate = await call(server.baseUrl, admin, "POST", `/api/v1/skills/${refund}/activate`);
    expect(activate.status).toBe(409);
  });
});

describe(`qualification gates activation (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  let skillId: string;
  let procedureId: string;
  let scope: { tenant: string; agent: string; environment: string };
  const ledger = () => ledgerClient(server.baseUrl, admin, evaluators);
  const start = (caller: Caller, body: unknown = { model: MODEL, reason: "causal evidence first" }) =>
    call(server.baseUrl, caller, "POST", `/api/v1/skills/${skillId}/qualification`, body);

  beforeAll(async () => {
    await putAgent(server, "qg", { require_shadow: true, require_qualification: true, ...LEDGER });
    skillId = await distilled("qg");
  });

  it("refuses activation before any qualification, over the API and from the console, writing nothing", async () => {
    const api = await call(server.baseUrl, admin, "POST", `/api/v1/skills/${skillId}/activate`, { reason: "looks right" });
    expect(api.status).toBe(409);
    expect(api.headers.get("content-type")).toContain("application/problem+json");
    expect(api.json.code).toBe("invalid_state");
    expect(api.json.detail).toBe("This agent requires paired-evaluation qualification before activation; no qualification has been started for this skill version.");
    const console = await activateAction(skillId);
    expect(console.kind).toBe("invalid_state");
    expect(console.error!.message).toBe(api.json.detail);
    expect((await getSkill(server, skillId)).status).toBe("shadow");
    expect(await auditCount("skill.activated", skillId)).toBe(0);
  });

  it("starts qualification over the agent API with the admin scope only; bad input is a problem+json", async () => {
    expect((await start(ingest)).status).toBe(403);
    const bad = await start(admin, { model: "  ", reason: "r" });
    expect(bad.status).toBe(400);
    expect(bad.json.errors.map((e: { path: string }) => e.path)).toContain("/model");
    expect((await start(admin, { model: MODEL, reason: "r", extra: 1 })).status).toBe(400);
    expect((await call(server.baseUrl, admin, "POST", "/api/v1/skills/no-such-skill/qualification", { model: MODEL, reason: "r" })).status).toBe(404);
    expect(await auditCount("skill_qualification.started", skillId)).toBe(0);

    const created = await start(admin);
    expect(created.status, created.text).toBe(201);
    expect(created.json).toMatchObject({ state: "candidate", qualification_count: 0, proposal: { id: `skill:${skillId}:v1`, policy: { qualification_trials: 4 } } });
    procedureId = created.json.proposal.id;
    scope = created.json.scope;
    const again = await start(admin, { model: MODEL, reason: "clicked twice" });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(created.json);
    const audit = await server.sql.query("SELECT actor_type, details FROM audit_events WHERE action = 'skill_qualification.started' AND target_id = $1", [skillId]);
    expect(audit.rows).toEqual([{ actor_type: "api_key", details: expect.objectContaining({ procedure_id: procedureId, model: MODEL, reason: "causal evidence first" }) }]);
  });

  it("refuses activation while the procedure is still qualifying, allows it once the procedure is active", async () => {
    for (const k of [0, 1]) expect((await ledger().record(scope, procedureId, evaluation(k, "qualification"))).status).toBe(201);
    const early = await activateAction(skillId);
    expect(early.kind).toBe("invalid_state");
    expect(early.error!.message).toContain(`its ledger procedure ${procedureId} is still qualifying (2 of 4 cases), not active`);
    expect(await auditCount("skill.activated", skillId)).toBe(0);

    for (const k of [2, 3]) await ledger().record(scope, procedureId, evaluation(k, "qualification"));
    expect((await ledger().get(scope, procedureId)).json.state).toBe("active");
    const ok = await activateAction(skillId);
    expect(ok.kind, ok.text).toBe("ok");
    expect((await getSkill(server, skillId)).status).toBe("active");
    expect((await context(server, "qg", REFUND_QUERY)).skills.map((s: { skill_id: string }) => s.skill_id)).toEqual([skillId]);
  });

  it("a ledger suspension of the procedure demotes the active skill in the same transaction, naming the procedure", async () => {
    const before = await skillsVersion("qg");
    const first = await ledger().record(scope, procedureId, evaluation(10, "monitoring", false));
    expect(first.json.receipt.state_after).toBe("active");
    expect((await getSkill(server, skillId)).status).toBe("active");

    const second = await ledger().record(scope, procedureId, evaluation(11, "monitoring", false));
    expect(second.status, second.text).toBe(201);
    expect(second.json.receipt.state_after).toBe("suspended");
    const reason = `ledger procedure ${procedureId} was suspended: monitoring failure streak reached the policy limit`;
    expect(await getSkill(server, skillId)).toMatchObject({ status: "demoted", demotion_reason: reason });
    expect(await stampedCount(server, skillId)).toBe(0);
    expect(await skillsVersion("qg")).toBe(before + 1);
    expect((await context(server, "qg", REFUND_QUERY)).skills).toEqual([]);

    const audit = await server.sql.query(
      `SELECT actor_type, actor_id, actor_label, actor_role, action, target_type, target_id, request_id, client_hash, details
       FROM audit_events WHERE action = 'skill.demoted' AND target_id = $1`,
      [skillId],
    );
    expect(audit.rows).toEqual([
      {
        actor_type: "system",
        actor_id: null,
        actor_label: "system",
        actor_role: null,
        action: "skill.demoted",
        target_type: "skill",
        target_id: skillId,
        request_id: "ledger-suspension",
        client_hash: null,
        details: { agent_id: "qg", version: 1, reason },
      },
    ]);
    // A member of the audit event union, as recordAudit writes it: no database trigger writes it.
    const [row] = audit.rows;
    expect(parseAuditEvent({ action: row.action, targetType: row.target_type, targetId: row.target_id, details: row.details })).toEqual({
      type: "skill.demoted",
      target: { type: "skill", id: skillId },
      data: { agent_id: "qg", version: 1, reason },
    });
    const triggers = await server.sql.query("SELECT tgname FROM pg_trigger WHERE tgrelid = 'ledger_procedures'::regclass AND NOT tgisinternal");
    expect(triggers.rows).toEqual([]);
    const events = await server.sql.query("SELECT event, actor, reason FROM skill_events WHERE skill_id = $1 AND event = 'skill_demoted'", [skillId]);
    expect(events.rows).toEqual([{ event: "skill_demoted", actor: "ledger", reason }]);
    // The audit page renders the row as a typed event.
    const page = await call(server.baseUrl, session, "GET", `/audit?target=${skillId}`);
    expect(page.text).toContain(procedureId);
  });

  it("without require_qualification the gate is off", async () => {
    await putAgent(server, "qg-off", { require_shadow: true, ...LEDGER });
    const other = await distilled("qg-off");
    expect((await activateAction(other)).kind).toBe("ok");
  });
});
