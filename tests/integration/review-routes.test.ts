// The review pages' server actions, over HTTP with real sessions: who may call them (anonymous
// callers and API keys are sent to sign in, viewers refused, admins allowed), what they write (the change and its audit row), what they refuse, and that
// pages render actions for admins only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";
import { anonymous, call, login, type Caller } from "../helpers/http";
import { createConsoleUser } from "../helpers/console";
import { callAction } from "../helpers/actions";
import { admin as adminKey, putAgent } from "../helpers/learning";
import { postPath } from "../helpers/review";

let server: TestServer;
let admin: Caller;
let viewer: Caller;
const AGENT = "routes";
let ready: string;
let thin: string;

beforeAll(async () => {
  server = await startTestServer({ env: { PROCTOR_LLM_BASE_URL: "", PROCTOR_LLM_API_KEY: "" } });
  admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  await createConsoleUser(server.baseUrl, admin, { email: "viewer@review.test", role: "VIEWER", password: "viewer-password-123" });
  viewer = await login(server.baseUrl, "viewer@review.test", "viewer-password-123");
  await putAgent(server, AGENT, { require_shadow: true, skill_injection_role: "developer" });
  ready = await postPath(server, AGENT, { tools: ["lookup_order", "issue_refund"], n: 5 });
  thin = await postPath(server, AGENT, { tools: ["lookup_order", "send_email"], n: 2 });
});
afterAll(async () => {
  await server?.stop();
});

const dbKind = process.env.PROCTOR_TEST_DB ?? "pglite";
const LEARNING = "lib/actions/learning.ts";
const SKILLS = "lib/actions/skills.ts";
const distill = (who: Caller, input: Record<string, unknown>) => callAction(server, who, `${LEARNING}#distillClass`, { agent_id: AGENT, ...input });
const settings = (who: Caller, learning: unknown, agentId = AGENT) => callAction(server, who, `${LEARNING}#saveLearningSettings`, { agent_id: agentId, learning });

async function auditRows(action: string, targetId: string) {
  const r = await server.sql.query("SELECT actor_type, actor_label, actor_role, details FROM audit_events WHERE action = $1 AND target_id = $2 ORDER BY id", [action, targetId]);
  return r.rows;
}

describe(`review console routes (${dbKind})`, () => {
  it("refuses anonymous callers, viewers and API keys before doing anything", async () => {
    const current = (await call(server.baseUrl, adminKey, "GET", `/api/v1/agents/${AGENT}`)).json.learning;
    const calls: [string, unknown][] = [
      [`${LEARNING}#distillClass`, { agent_id: AGENT, canonical_hash: ready, user_id: null }],
      [`${LEARNING}#runPromotionCycle`, { agent_id: AGENT }],
      [`${LEARNING}#saveLearningSettings`, { agent_id: AGENT, learning: { ...current, min_executions: 2 } }],
    ];
    for (const [name, input] of calls) {
      expect((await callAction(server, anonymous, name, input)).kind, `anonymous ${name}`).toBe("unauthorized");
      expect((await callAction(server, viewer, name, input)).kind, `viewer ${name}`).toBe("forbidden");
      // Console actions are for sessions: even an admin key is not one.
      expect((await callAction(server, adminKey, name, input)).kind, `key ${name}`).toBe("unauthorized");
    }
    expect((await call(server.baseUrl, adminKey, "GET", `/api/v1/agents/${AGENT}`)).json.learning).toEqual(current);
    const none = await server.sql.query("SELECT count(*)::int AS n FROM promotion_reports");
    expect(none.rows[0].n).toBe(0);
    const skills = await server.sql.query("SELECT count(*)::int AS n FROM skills");
    expect(skills.rows[0].n).toBe(0);
  });

  it("Distill now: gates first, then a shadow skill with its name in the report, audited", async () => {
    const skipped = await distill(admin, { canonical_hash: thin, user_id: null });
    expect(skipped.kind, skipped.text).toBe("ok");
    expect(skipped.data.report).toMatchObject({ trigger: "distill", promoted: [], skipped: [{ canonical_hash: thin, user_id: null, reason: "executions 2 < 5" }] });

    const r = await distill(admin, { canonical_hash: ready, user_id: null });
    expect(r.kind, r.text).toBe("ok");
    expect(r.data.report.promoted).toHaveLength(1);
    const id = r.data.report.promoted[0];
    expect(r.data.skills[id]).toMatchObject({ id, version: 1, status: "shadow" });
    const audit = await auditRows("class.distilled", AGENT);
    expect(audit).toHaveLength(2);
    expect(audit[1]).toMatchObject({ actor_type: "user", actor_label: ADMIN_EMAIL, actor_role: "ADMIN", details: { promoted: [id], canonical_hash: ready } });

    const bad = await distill(admin, { canonical_hash: ready, user_id: null, force: true });
    expect(bad.kind).toBe("validation_error");
    const unknownAgent = await distill(admin, { agent_id: "nobody", canonical_hash: ready, user_id: null });
    expect(unknownAgent.kind).toBe("not_found");
  });

  it("Run promotion cycle: a stored report, audited with the session user", async () => {
    const r = await callAction(server, admin, `${LEARNING}#runPromotionCycle`, { agent_id: AGENT });
    expect(r.kind, r.text).toBe("ok");
    expect(r.data.report).toMatchObject({ trigger: "manual", agent_id: AGENT, promoted: [] });
    const stored = await server.sql.query("SELECT id FROM promotion_reports WHERE id = $1", [r.data.report.id]);
    expect(stored.rows).toHaveLength(1);
    expect(await auditRows("promotion_cycle.ran", AGENT)).toEqual([expect.objectContaining({ actor_type: "user", actor_label: ADMIN_EMAIL })]);
  });

  it("activation and demotion from a session: viewers refused, admins decide with a reason", async () => {
    const [{ id }] = (await server.sql.query("SELECT id FROM skills WHERE agent_id = $1", [AGENT])).rows;
    const act = (who: Caller, input: Record<string, unknown>) => callAction(server, who, `${SKILLS}#activateSkill`, { skill_id: id, ...input });
    const dem = (who: Caller, input: Record<string, unknown>) => callAction(server, who, `${SKILLS}#demoteSkill`, { skill_id: id, ...input });
    expect((await act(anonymous, { injection_role: "developer", reason: "x" })).kind).toBe("unauthorized");
    expect((await act(viewer, { injection_role: "developer", reason: "x" })).kind).toBe("forbidden");
    expect((await dem(viewer, { reason: "x" })).kind).toBe("forbidden");
    expect((await server.sql.query("SELECT status FROM skills WHERE id = $1", [id])).rows[0].status).toBe("SHADOW");

    const ok = await act(admin, { injection_role: "developer", reason: "reviewed in shadow" });
    expect(ok.kind, ok.text).toBe("ok");
    expect(ok.data).toMatchObject({ status: "active", injection_role: "developer" });
    expect(await auditRows("skill.activated", id)).toEqual([
      expect.objectContaining({ actor_type: "user", actor_label: ADMIN_EMAIL, details: expect.objectContaining({ injection_role: "developer", reason: "reviewed in shadow" }) }),
    ]);
    const again = await act(admin, { injection_role: "user", reason: "again" });
    expect(again.kind).toBe("invalid_state");
    expect(again.error!.message).toContain("Only shadow or candidate skills can be activated");

    const down = await dem(admin, { reason: "superseded" });
    expect(down.kind, down.text).toBe("ok");
    expect(down.data).toMatchObject({ status: "demoted", demotion_reason: "superseded" });
    expect(await auditRows("skill.demoted", id)).toHaveLength(1);
  });

  it("learning settings: validated by the API's schema, unsafe authority refused, changes audited", async () => {
    const current = (await call(server.baseUrl, adminKey, "GET", `/api/v1/agents/${AGENT}`)).json.learning;
    expect(current).toMatchObject({ require_shadow: true, skill_injection_role: "developer", min_executions: 5 });

    const unsafe = await settings(admin, { ...current, require_shadow: false });
    expect(unsafe.kind).toBe("validation_error");
    expect(unsafe.error!.fields).toEqual([{ path: "/learning/skill_injection_role", message: expect.stringContaining("require_shadow") }]);
    const unknown = await settings(admin, { ...current, surprise: 1 });
    expect(unknown.kind).toBe("validation_error");
    const range = await settings(admin, { ...current, min_success_rate: 1.5 });
    expect(range.kind).toBe("validation_error");
    expect(range.error!.fields![0].path).toBe("/learning/min_success_rate");
    expect(await auditRows("learning_config.updated", AGENT)).toEqual([]);

    const next = { ...current, min_executions: 7, skill_injection_role: "user", shadow_evaluation_enabled: true };
    const saved = await settings(admin, next);
    expect(saved.kind, saved.text).toBe("ok");
    expect(saved.data.learning).toEqual(next);
    const agent = await call(server.baseUrl, adminKey, "GET", `/api/v1/agents/${AGENT}`);
    expect(agent.json.learning).toEqual(next);
    expect(await auditRows("learning_config.updated", AGENT)).toEqual([
      expect.objectContaining({
        actor_label: ADMIN_EMAIL,
        details: { changed: { min_executions: { from: 5, to: 7 }, skill_injection_role: { from: "developer", to: "user" }, shadow_evaluation_enabled: { from: false, to: true } } },
      }),
    ]);
    expect((await settings(admin, next, "nobody")).kind).toBe("not_found");
  });
});

describe(`review pages (${dbKind})`, () => {
  it("render the review data for everyone and the actions for admins only", async () => {
    const wf = `/workflows?agent=${AGENT}&class=${ready}&class_agent=${AGENT}`;
    const asViewer = await call(server.baseUrl, viewer, "GET", wf);
    const asAdmin = await call(server.baseUrl, admin, "GET", wf);
    expect(asViewer.status).toBe(200);
    expect(asAdmin.status).toBe(200);
    for (const page of [asViewer, asAdmin]) {
      expect(page.text).toContain("lookup_order → issue_refund");
      expect(page.text).toContain("Promotion gates");
      expect(page.text).toContain("Promotion reports");
    }
    expect(asViewer.text).not.toContain("Run promotion cycle");
    expect(asAdmin.text).toContain("Run promotion cycle");

    const skills = "/skills?agent=" + AGENT;
    const sv = await call(server.baseUrl, viewer, "GET", skills);
    const sa = await call(server.baseUrl, admin, "GET", skills);
    expect(sv.status).toBe(200);
    expect(sv.text).toContain("SKILL.md");
    expect(sv.text).not.toContain("Activate as");
    expect(sv.text).not.toContain("skill.activated");
    expect(sa.text).toContain("skill.activated");

    const settings = `/agents/${AGENT}/settings`;
    const gv = await call(server.baseUrl, viewer, "GET", settings);
    const ga = await call(server.baseUrl, admin, "GET", settings);
    expect(gv.status).toBe(200);
    expect(gv.text).toContain("Only admins can change these settings.");
    expect(gv.text).not.toContain("Save settings");
    expect(ga.text).toContain("Save settings");
    expect(ga.text).toContain("template distiller in use");
    expect((await call(server.baseUrl, admin, "GET", `/agents/nobody/settings`)).status).toBe(404);
  });
});
