// The review pages' console routes and the endpoints their buttons call, over HTTP with real
// sessions: who may call them (anonymous 401, viewer 403, keys refused on session routes,
// admin 200), what they write (the change and its audit row), what they refuse, and that
// pages render actions for admins only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";
import { anonymous, call, login, type Caller } from "../helpers/http";
import { createConsoleUser } from "../helpers/console";
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
const base = `/api/console/learning/agents/${AGENT}`;

async function auditRows(action: string, targetId: string) {
  const r = await server.sql.query("SELECT actor_type, actor_label, actor_role, details FROM audit_events WHERE action = $1 AND target_id = $2 ORDER BY id", [action, targetId]);
  return r.rows;
}

describe(`review console routes (${dbKind})`, () => {
  it("refuses anonymous callers, viewers and API keys before doing anything", async () => {
    const calls: [string, string, unknown][] = [
      ["POST", `${base}/distill`, { canonical_hash: ready, user_id: null }],
      ["POST", `${base}/promotion-cycle`, {}],
      ["PUT", `${base}/settings`, { learning: {} }],
    ];
    for (const [method, path, body] of calls) {
      expect((await call(server.baseUrl, anonymous, method, path, body)).status, `anonymous ${path}`).toBe(401);
      expect((await call(server.baseUrl, viewer, method, path, body)).status, `viewer ${path}`).toBe(403);
      // Console routes are for sessions: even an admin key is not one.
      expect((await call(server.baseUrl, adminKey, method, path, body)).status, `key ${path}`).toBe(401);
    }
    expect((await call(server.baseUrl, anonymous, "GET", `${base}/settings`)).status).toBe(401);
    expect((await call(server.baseUrl, viewer, "GET", `${base}/settings`)).status).toBe(200);
    const none = await server.sql.query("SELECT count(*)::int AS n FROM promotion_reports");
    expect(none.rows[0].n).toBe(0);
    const skills = await server.sql.query("SELECT count(*)::int AS n FROM skills");
    expect(skills.rows[0].n).toBe(0);
  });

  it("Distill now: gates first, then a shadow skill with its name in the report, audited", async () => {
    const skipped = await call(server.baseUrl, admin, "POST", `${base}/distill`, { canonical_hash: thin, user_id: null });
    expect(skipped.status, skipped.text).toBe(200);
    expect(skipped.json.report).toMatchObject({ trigger: "distill", promoted: [], skipped: [{ canonical_hash: thin, user_id: null, reason: "executions 2 < 5" }] });

    const r = await call(server.baseUrl, admin, "POST", `${base}/distill`, { canonical_hash: ready, user_id: null });
    expect(r.status, r.text).toBe(200);
    expect(r.json.report.promoted).toHaveLength(1);
    const id = r.json.report.promoted[0];
    expect(r.json.skills[id]).toMatchObject({ id, version: 1, status: "shadow" });
    const audit = await auditRows("class.distilled", AGENT);
    expect(audit).toHaveLength(2);
    expect(audit[1]).toMatchObject({ actor_type: "user", actor_label: ADMIN_EMAIL, actor_role: "ADMIN", details: { promoted: [id], canonical_hash: ready } });

    const bad = await call(server.baseUrl, admin, "POST", `${base}/distill`, { canonical_hash: ready, user_id: null, force: true });
    expect(bad.status).toBe(400);
    const unknownAgent = await call(server.baseUrl, admin, "POST", `/api/console/learning/agents/nobody/distill`, { canonical_hash: ready, user_id: null });
    expect(unknownAgent.status).toBe(404);
  });

  it("Run promotion cycle: a stored report, audited with the session user", async () => {
    const r = await call(server.baseUrl, admin, "POST", `${base}/promotion-cycle`, {});
    expect(r.status, r.text).toBe(200);
    expect(r.json.report).toMatchObject({ trigger: "manual", agent_id: AGENT, promoted: [] });
    const stored = await server.sql.query("SELECT id FROM promotion_reports WHERE id = $1", [r.json.report.id]);
    expect(stored.rows).toHaveLength(1);
    expect(await auditRows("promotion_cycle.ran", AGENT)).toEqual([expect.objectContaining({ actor_type: "user", actor_label: ADMIN_EMAIL })]);
  });

  it("activation and demotion from a session: viewers 403, admins decide with a reason", async () => {
    const [{ id }] = (await server.sql.query("SELECT id FROM skills WHERE agent_id = $1", [AGENT])).rows;
    const act = `/api/v1/skills/${id}/activate`;
    const dem = `/api/v1/skills/${id}/demote`;
    expect((await call(server.baseUrl, anonymous, "POST", act, { injection_role: "developer", reason: "x" })).status).toBe(401);
    expect((await call(server.baseUrl, viewer, "POST", act, { injection_role: "developer", reason: "x" })).status).toBe(403);
    expect((await call(server.baseUrl, viewer, "POST", dem, { reason: "x" })).status).toBe(403);
    expect((await server.sql.query("SELECT status FROM skills WHERE id = $1", [id])).rows[0].status).toBe("SHADOW");

    const ok = await call(server.baseUrl, admin, "POST", act, { injection_role: "developer", reason: "reviewed in shadow" });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json).toMatchObject({ status: "active", injection_role: "developer" });
    expect(await auditRows("skill.activated", id)).toEqual([
      expect.objectContaining({ actor_type: "user", actor_label: ADMIN_EMAIL, details: expect.objectContaining({ injection_role: "developer", reason: "reviewed in shadow" }) }),
    ]);
    const again = await call(server.baseUrl, admin, "POST", act, { injection_role: "user", reason: "again" });
    expect(again.status).toBe(409);
    expect(again.json.detail).toContain("Only shadow or candidate skills can be activated");

    const down = await call(server.baseUrl, admin, "POST", dem, { reason: "superseded" });
    expect(down.status, down.text).toBe(200);
    expect(down.json).toMatchObject({ status: "demoted", demotion_reason: "superseded" });
    expect(await auditRows("skill.demoted", id)).toHaveLength(1);
  });

  it("learning settings: validated by the API's schema, unsafe authority refused, changes audited", async () => {
    const current = (await call(server.baseUrl, admin, "GET", `${base}/settings`)).json.learning;
    expect(current).toMatchObject({ require_shadow: true, skill_injection_role: "developer", min_executions: 5 });

    const unsafe = await call(server.baseUrl, admin, "PUT", `${base}/settings`, { learning: { ...current, require_shadow: false } });
    expect(unsafe.status).toBe(400);
    expect(unsafe.json.errors).toEqual([{ path: "/skill_injection_role", message: expect.stringContaining("require_shadow") }]);
    const unknown = await call(server.baseUrl, admin, "PUT", `${base}/settings`, { learning: { ...current, surprise: 1 } });
    expect(unknown.status).toBe(400);
    const range = await call(server.baseUrl, admin, "PUT", `${base}/settings`, { learning: { ...current, min_success_rate: 1.5 } });
    expect(range.status).toBe(400);
    expect(range.json.errors[0].path).toBe("/min_success_rate");
    expect(await auditRows("learning_config.updated", AGENT)).toEqual([]);

    const next = { ...current, min_executions: 7, skill_injection_role: "user", shadow_evaluation_enabled: true };
    const saved = await call(server.baseUrl, admin, "PUT", `${base}/settings`, { learning: next });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json.learning).toEqual(next);
    const agent = await call(server.baseUrl, adminKey, "GET", `/api/v1/agents/${AGENT}`);
    expect(agent.json.learning).toEqual(next);
    expect(await auditRows("learning_config.updated", AGENT)).toEqual([
      expect.objectContaining({
        actor_label: ADMIN_EMAIL,
        details: { changed: { min_executions: { from: 5, to: 7 }, skill_injection_role: { from: "developer", to: "user" }, shadow_evaluation_enabled: { from: false, to: true } } },
      }),
    ]);
    expect((await call(server.baseUrl, admin, "PUT", `/api/console/learning/agents/nobody/settings`, { learning: next })).status).toBe(404);
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
