// Skills meet the ledger, against the real server: an admin starts paired-evaluation
// qualification of a shadow skill from the console; the procedure's scope, task, baseline and
// policy come from the deployment, the agent and its learning configuration; repeating it
// returns the same procedure; the skill page shows the procedure's state and n / trials.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/prisma";
import { getSkillDetail } from "@/lib/learning/review/skill-detail";
import { DEPLOYMENT_SETTING, environmentFingerprint } from "@/lib/ledger/skills";
import { ADMIN_EMAIL, ADMIN_KEY, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";
import { call, login, withKey, type Caller } from "../helpers/http";
import { createConsoleUser } from "../helpers/console";
import { callAction } from "../helpers/actions";
import { evaluatorKey } from "../helpers/keys";
import { cycle, getSkill, postRuns, putAgent } from "../helpers/learning";
import { fixtureEvaluation, ledgerClient } from "../helpers/ledger";
import { reviewDb } from "../helpers/review";

let server: TestServer;
let admin: Caller;
let viewer: Caller;
let db: Db;
let shadow: { skill_id: string; content: string; source_canonical_hash: string; source_workflow_ids: string[] };
let active: { skill_id: string };

const MODEL = "gpt-4o-2024-08-06";
const LEDGER_CONFIG = { ledger_baseline_revision: "agent-without-skills", ledger_qualification_trials: 4, ledger_min_improvement: 0.1, ledger_evaluator_id: "ci-evaluator" };
const qualify = (who: Caller, skillId: string, body: Record<string, unknown> = { model: MODEL, reason: "causal evidence before activation" }) =>
  callAction(server, who, "lib/actions/skills.ts#startQualification", { skill_id: skillId, ...body });
const procedureRows = async () => (await server.sql.query("SELECT agent, procedure_id FROM ledger_procedures ORDER BY procedure_id")).rows;
const auditRows = async () =>
  (await server.sql.query("SELECT actor_type, actor_label, target_id, details FROM audit_events WHERE action = 'skill_qualification.started' ORDER BY id")).rows;
/** Visible text of a page: React separates adjacent text nodes with comment markers. */
const text = (html: string) => html.replace(/<!-- -->/g, "").replace(/&amp;/g, "&").replace(/&#x27;/g, "'");

beforeAll(async () => {
  server = await startTestServer();
  db = reviewDb(server);
  admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  await createConsoleUser(server.baseUrl, admin, { email: "qual-viewer@test.local", role: "VIEWER", password: "viewer-password-1" });
  viewer = await login(server.baseUrl, "qual-viewer@test.local", "viewer-password-1");

  await putAgent(server, "qual", { require_shadow: true, ...LEDGER_CONFIG });
  await postRuns(server, "qual", 5);
  shadow = await getSkill(server, (await cycle(server, "qual")).promoted[0]);
  expect(shadow).toMatchObject({ status: "shadow" });

  await putAgent(server, "qual-active");
  await postRuns(server, "qual-active", 5);
  active = await getSkill(server, (await cycle(server, "qual-active")).promoted[0]);
  expect(active).toMatchObject({ status: "active" });
});
afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
});

describe(`skills meet the ledger (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("refuses viewers, API keys, non-shadow and unknown skills and bad input, changing nothing", async () => {
    expect((await qualify(viewer, shadow.skill_id)).kind).toBe("forbidden");
    expect((await qualify(withKey(ADMIN_KEY), shadow.skill_id)).kind).toBe("unauthorized");

    const notShadow = await qualify(admin, active.skill_id);
    expect(notShadow.kind).toBe("invalid_state");
    expect(notShadow.error!.message).toContain("this skill is active");

    expect((await qualify(admin, "no-such-skill")).kind).toBe("not_found");
    const blankModel = await qualify(admin, shadow.skill_id, { model: "  ", reason: "r" });
    expect(blankModel.kind).toBe("validation_error");
    expect(blankModel.error!.fields!.map((e) => e.path)).toContain("/model");
    expect((await qualify(admin, shadow.skill_id, { model: MODEL })).kind).toBe("validation_error");

    expect(await procedureRows()).toEqual([]);
    expect(await auditRows()).toEqual([]);
  });

  it("proposes the SKILL.md with the deployment/agent/fingerprint scope, class task and the agent's baseline and policy", async () => {
    const q = await qualify(admin, shadow.skill_id);
    expect(q.kind, q.text).toBe("ok");
    expect(q.data.created).toBe(true);
    const r = { json: q.data.record };
    const deployment = (await server.sql.query("SELECT value FROM settings WHERE key = $1", [DEPLOYMENT_SETTING])).rows[0].value;
    const tools = (await server.sql.query("SELECT tools FROM agents WHERE id = 'qual'")).rows[0].tools;
    expect(r.json.scope).toEqual({ tenant: deployment, agent: "qual", environment: environmentFingerprint(tools, MODEL) });
    expect(r.json.state).toBe("candidate");
    expect(r.json.qualification_count).toBe(0);
    expect(r.json.proposal).toEqual({
      id: `skill:${shadow.skill_id}:v1`,
      task: shadow.source_canonical_hash,
      baseline_revision: "agent-without-skills",
      instructions: shadow.content,
      source_refs: shadow.source_workflow_ids.map((w) => `proctor:workflow:${w}`),
      policy: {
        qualification_trials: 4,
        confidence_delta: 0.01,
        min_improvement: 0.1,
        min_candidate_utility: 0.7,
        max_cost_units: 10_000,
        max_latency_ms: 60_000,
        max_failure_streak: 3,
        evaluator_id: "ci-evaluator",
        evaluation_contract: "proctor-skill-paired-v1",
      },
    });
    // The evaluators' API sees the same procedure.
    const viaApi = await ledgerClient(server.baseUrl, withKey(ADMIN_KEY)).get(r.json.scope, r.json.proposal.id);
    expect(viaApi.json).toEqual(r.json);
    expect((await getSkill(server, shadow.skill_id)).status).toBe("shadow");

    const audit = await auditRows();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actor_type: "user",
      actor_label: ADMIN_EMAIL,
      target_id: shadow.skill_id,
      details: { agent_id: "qual", procedure_id: r.json.proposal.id, scope: r.json.scope, model: MODEL, task: shadow.source_canonical_hash, reason: "causal evidence before activation" },
    });
    expect(audit[0].details.policy).toEqual(r.json.proposal.policy);
    expect(JSON.stringify(audit[0].details)).not.toContain(shadow.content);
    expect(audit[0].details).not.toHaveProperty("instructions");
  });

  it("returns the existing procedure when started again, even after the ledger settings changed", async () => {
    const [before] = await procedureRows();
    await putAgent(server, "qual", { require_shadow: true, ...LEDGER_CONFIG, ledger_qualification_trials: 64 });
    const again = await qualify(admin, shadow.skill_id, { model: MODEL, reason: "clicked twice" });
    expect(again.kind, again.text).toBe("ok");
    expect(again.data.created).toBe(false);
    expect(again.data.record.proposal.policy.qualification_trials).toBe(4);
    expect(await procedureRows()).toEqual([before]);
    expect(await auditRows()).toHaveLength(1);
  });

  it("shows the procedure's state, n / trials and bound on the skill page (admins) and in the detail data", async () => {
    const record = (await qualify(admin, shadow.skill_id)).data.record;
    const ledger = ledgerClient(server.baseUrl, withKey(ADMIN_KEY), (await evaluatorKey(server, admin, "ci-evaluator")).caller);
    for (const k of [0, 1, 2]) {
      const r = await ledger.record(record.scope, record.proposal.id, fixtureEvaluation(k, "qualification", { evaluator_id: "ci-evaluator", evaluation_contract: "proctor-skill-paired-v1" }));
      expect(r.status, r.text).toBe(201);
    }
    const detail = (await getSkillDetail(db, shadow.skill_id, { withAudit: true, withLedger: true }))!;
    expect(detail.qualification).toMatchObject({ state: "candidate", n: 3, trials: 4, meanImprovement: 1, lowerBound: null, minImprovement: 0.1, procedureId: record.proposal.id, scope: record.scope });
    expect((await getSkillDetail(db, shadow.skill_id, { withAudit: false }))!.qualification).toBeUndefined();
    expect((await getSkillDetail(db, active.skill_id, { withAudit: true, withLedger: true }))!.qualification).toBeNull();

    const page = await call(server.baseUrl, admin, "GET", `/skills?skill=${encodeURIComponent(shadow.skill_id)}`);
    expect(page.status).toBe(200);
    const html = text(page.text);
    expect(html).toContain("Qualification");
    expect(html).toContain("ledger: candidate");
    expect(html).toContain("3 / 4");
    expect(html).toContain("mean improvement 1.000");
    expect(html).toContain(`href="/ledger/procedure?${new URLSearchParams({ ...record.scope, id: record.proposal.id }).toString()}"`);
    const asViewer = text((await call(server.baseUrl, viewer, "GET", `/skills?skill=${encodeURIComponent(shadow.skill_id)}`)).text);
    expect(asViewer).toContain(shadow.skill_id);
    expect(asViewer).not.toContain("ledger: candidate");
  });

  it("offers the start button on a shadow skill without a procedure", async () => {
    await postRuns(server, "qual", 5, { emailPath: true });
    const second = (await cycle(server, "qual")).promoted[0];
    const html = text((await call(server.baseUrl, admin, "GET", `/skills?skill=${encodeURIComponent(second)}`)).text);
    expect(html).toContain("Start paired-evaluation qualification");
    expect(html).not.toContain("ledger: candidate");
  });
});
