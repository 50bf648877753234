// The review pages' domain queries on a real database (data sent through the API): class
// statuses computed in SQL agree with the engine's verdict, counts, status and text filters,
// sorting, pagination, the post-demotion window, details, summaries and the skills list.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server";
import { call } from "../helpers/http";
import { admin, putAgent } from "../helpers/learning";
import { postPath, reviewDb } from "../helpers/review";
import type { Db } from "@/lib/db/prisma";
import { classStatusCountsByAgent, listReviewClasses, totalCounts, type ReviewClassRow } from "@/lib/learning/review/class-list";
import { CHART_DAYS, getClassDetail, listClassRuns, resolveClassKey } from "@/lib/learning/review/class-detail";
import { agentConfigs } from "@/lib/learning/review/agent-configs";
import { agentRollup, workflowSummary } from "@/lib/learning/review/summary";
import { listReviewSkills } from "@/lib/learning/review/skill-list";
import { getSkillDetail } from "@/lib/learning/review/skill-detail";
import { latestReports } from "@/lib/learning/review/reports";
import { CLASS_STATUSES, type ClassStatus } from "@/lib/learning/review/status";

let server: TestServer;
let db: Db;
const H: Record<string, string> = {};
const AGENT = "rq";

beforeAll(async () => {
  server = await startTestServer({ env: { PROCTOR_LLM_BASE_URL: "", PROCTOR_LLM_API_KEY: "" } });
  db = reviewDb(server);
  // Per-account classes (learning_scope "user"): acct-1's runs below form a class of their own.
  await putAgent(server, AGENT, { require_shadow: true, learning_scope: "user" });
  await putAgent(server, "rq2");
  H.r1 = await postPath(server, AGENT, { tools: ["lookup_order", "issue_refund"], n: 6, failures: 1 });
  H.r2 = await postPath(server, AGENT, { tools: ["lookup_order", "send_email"], n: 8 });
  H.r3 = await postPath(server, AGENT, { tools: ["send_email", "issue_refund"], n: 5 });
  H.f = await postPath(server, AGENT, { tools: ["issue_refund"], n: 4, failures: 3 });
  H.e = await postPath(server, AGENT, { tools: ["send_email"], n: 3 });
  H.q = await postPath(server, AGENT, { tools: ["lookup_order"], n: 6, query: () => "Same   Question about Parcels" });
  // The same path as H.e for another user: its own class.
  H.u = await postPath(server, AGENT, { tools: ["send_email"], n: 2, userId: "acct-1" });
  H.other = await postPath(server, "rq2", { tools: ["lookup_order", "issue_refund"], n: 2 });
});
afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
});

const dbKind = process.env.PROCTOR_TEST_DB ?? "pglite";
const all = (extra: Partial<Parameters<typeof listReviewClasses>[1]> = {}, now?: Date) =>
  listReviewClasses(db, { agent: AGENT, sort: "status", page: 1, page_size: 100, ...extra }, now);
const statusOf = (rows: ReviewClassRow[]) => Object.fromEntries(rows.map((r) => [`${r.canonicalHash}|${r.userScope}`, r.status]));
const key = (h: string, u = "") => `${h}|${u}`;

/**
 * The SQL status of every row agrees with the engine's gates (ready exactly when eligible) and
 * with the class detail's status; returns the statuses seen.
 */
async function expectSqlAgreesWithEngine(now?: Date): Promise<Set<ClassStatus>> {
  const counts = (await all({}, now)).counts;
  const seen = new Set<ClassStatus>();
  for (const s of CLASS_STATUSES) {
    const page = await all({ status: s }, now);
    expect(page.total, s).toBe(counts[s]);
    for (const r of page.rows) {
      expect(r.status, `${r.tools.join(">")} filtered as ${s}`).toBe(s);
      const failed = r.gates.filter((g) => !g.passed).map((g) => g.name);
      expect(r.eligible).toBe(failed.length === 0);
      expect(r.eligible).toBe(s === "ready");
      const detail = (await getClassDetail(db, { agentId: r.agentId, userScope: r.userScope, canonicalHash: r.canonicalHash }, now))!;
      expect(detail.status, `${r.tools.join(">")}: list and detail`).toBe(s);
      seen.add(s);
    }
  }
  return seen;
}

async function distill(agentId: string, hash: string) {
  const r = await call(server.baseUrl, admin, "POST", `/api/v1/agents/${agentId}/classes/${hash}/distill?user_id=`);
  expect(r.status, r.text).toBe(200);
  return r.json as { promoted: string[] };
}

describe(`review queries: trajectory classes (${dbKind})`, () => {
  it("gives every class the engine's status and counts them", async () => {
    const { rows, total, counts } = await all();
    expect(total).toBe(7);
    expect(statusOf(rows)).toEqual({
      [key(H.r1)]: "ready",
      [key(H.r2)]: "ready",
      [key(H.r3)]: "ready",
      [key(H.f)]: "failing",
      [key(H.e)]: "evidence",
      [key(H.q)]: "evidence",
      [key(H.u, "acct-1")]: "evidence",
    });
    expect(counts).toEqual({ ready: 3, failing: 1, evidence: 3, in_review: 0, promoted: 0 });
    // Default order: ready, failing, evidence…; within a status, most runs first.
    expect(rows.map((r) => r.status)).toEqual(["ready", "ready", "ready", "failing", "evidence", "evidence", "evidence"]);
    expect(rows[0].canonicalHash).toBe(H.r2);
    const q = rows.find((r) => r.canonicalHash === H.q)!;
    expect(q.gates.find((g) => g.name === "distinct_queries")).toMatchObject({ passed: false, detail: "1 distinct (need 2)" });
    await expectSqlAgreesWithEngine();
  });

  it("pages without gaps or repeats, in the requested order", async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const r = await all({ sort: "runs", dir: "desc", page, page_size: 2 });
      expect(r.total).toBe(7);
      expect(r.rows.length).toBe(page < 4 ? 2 : 1);
      seen.push(...r.rows.map((x) => key(x.canonicalHash, x.userScope)));
    }
    expect(new Set(seen).size).toBe(7);
    const full = (await all({ sort: "runs", dir: "desc" })).rows;
    expect(full.map((x) => key(x.canonicalHash, x.userScope))).toEqual(seen);
    expect(full.map((r) => r.executions)).toEqual([...full.map((r) => r.executions)].sort((a, b) => b - a));
    const asc = (await all({ sort: "runs", dir: "asc" })).rows.map((r) => r.executions);
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    const rates = (await all({ sort: "success", dir: "desc" })).rows.map((r) => r.successes / r.executions);
    expect(rates).toEqual([...rates].sort((a, b) => b - a));
    const seenAt = (await all({ sort: "last_seen", dir: "asc" })).rows.map((r) => r.lastSeen.getTime());
    expect(seenAt).toEqual([...seenAt].sort((a, b) => a - b));
    const paths = (await all({ sort: "tools", dir: "asc" })).rows.map((r) => r.tools.join(" "));
    expect(paths).toEqual([...paths].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it("filters by tool, hash prefix, query text and status, with counts under the filter", async () => {
    const byTool = await all({ q: "issue_refund" });
    expect(new Set(byTool.rows.map((r) => r.canonicalHash))).toEqual(new Set([H.r1, H.r3, H.f]));
    expect(byTool.counts).toEqual({ ready: 2, failing: 1, evidence: 0, in_review: 0, promoted: 0 });
    expect((await all({ q: "lookup_order → send_email" })).rows.map((r) => r.canonicalHash)).toEqual([H.r2]);
    expect((await all({ q: H.f.slice(0, 10) })).rows.map((r) => r.canonicalHash)).toEqual([H.f]);
    // Query text is matched in its normalized form.
    expect((await all({ q: "SAME   question about" })).rows.map((r) => r.canonicalHash)).toEqual([H.q]);
    expect((await all({ q: "acct-1" })).rows.map((r) => r.userScope)).toEqual(["acct-1"]);
    // LIKE wildcards are literal text.
    expect((await all({ q: "%" })).total).toBe(0);
    expect((await all({ q: "_" })).rows.every((r) => r.tools.some((t) => t.includes("_")))).toBe(true);
    const readyRefund = await all({ q: "issue_refund", status: "ready" });
    expect(readyRefund.total).toBe(2);
    expect(readyRefund.rows.every((r) => r.status === "ready")).toBe(true);
  });

  it("applies the recency gate in SQL exactly as the engine does", async () => {
    const later = new Date(Date.now() + 40 * 86_400_000);
    const { counts, rows } = await all({}, later);
    expect(counts.ready).toBe(0);
    expect(rows.find((r) => r.canonicalHash === H.r1)!.gates.find((g) => g.name === "recency")).toMatchObject({ passed: false });
    await expectSqlAgreesWithEngine(later);
    // 30 whole days still pass (max_days_since_last_seen = 30).
    expect((await all({}, new Date(Date.now() + 30 * 86_400_000 + 60_000))).counts.ready).toBe(3);
  });

  it("follows the lifecycle: in review, promoted, then after a demotion only the runs since it count", async () => {
    const shadow = (await distill(AGENT, H.r2)).promoted[0];
    expect(shadow).toBeTruthy();
    const v1 = (await distill(AGENT, H.r1)).promoted[0];
    const act = await call(server.baseUrl, admin, "POST", `/api/v1/skills/${v1}/activate`, { injection_role: "developer", reason: "reviewed" });
    expect(act.status, act.text).toBe(200);
    let s = statusOf((await all()).rows);
    expect(s[key(H.r2)]).toBe("in_review");
    expect(s[key(H.r1)]).toBe("promoted");
    // Every status at once: the list and the detail agree on each.
    expect(await expectSqlAgreesWithEngine()).toEqual(new Set(CLASS_STATUSES));

    const detail = (await getClassDetail(db, { agentId: AGENT, userScope: "", canonicalHash: H.r1 }))!;
    expect(detail.live).toMatchObject({ id: v1, status: "active", version: 1 });
    expect(detail.gates[0]).toMatchObject({ name: "coverage", passed: false });
    const runs = await listClassRuns(db, detail.key, 1, 4);
    expect(runs).toHaveLength(4);
    expect(runs.every((r) => r.promotedSkillId === v1)).toBe(true);
    expect((await listClassRuns(db, detail.key, 2, 4)).map((r) => r.id)).not.toContain(runs[0].id);

    const dem = await call(server.baseUrl, admin, "POST", `/api/v1/skills/${v1}/demote`, { reason: "drifted in review" });
    expect(dem.status, dem.text).toBe(200);
    s = statusOf((await all()).rows);
    expect(s[key(H.r1)]).toBe("evidence");
    const after = (await getClassDetail(db, detail.key))!;
    expect(after.since).not.toBeNull();
    expect(after.retired).toMatchObject({ id: v1, status: "demoted", demotionReason: "drifted in review" });
    expect(after.gates.find((g) => g.name === "executions")).toMatchObject({ passed: false, detail: "0 / 5 runs since retirement" });
    expect((await listClassRuns(db, detail.key, 1, 10)).every((r) => r.promotedSkillId === null)).toBe(true);

    await postPath(server, AGENT, { tools: ["lookup_order", "issue_refund"], n: 5 });
    s = statusOf((await all()).rows);
    expect(s[key(H.r1)]).toBe("ready");
    await expectSqlAgreesWithEngine();
    const v2 = (await distill(AGENT, H.r1)).promoted[0];
    const versions = (await getSkillDetail(db, v2, { withAudit: true }))!.versions;
    expect(versions.map((v) => [v.version, v.status])).toEqual([[2, "shadow"], [1, "demoted"]]);
  });

  it("details: the daily series, runs and a class link without its user scope", async () => {
    const d = (await getClassDetail(db, { agentId: AGENT, userScope: "", canonicalHash: H.f }))!;
    expect(d.status).toBe("failing");
    expect(d.daily).toHaveLength(CHART_DAYS);
    expect(d.daily[CHART_DAYS - 1]).toEqual({ day: new Date().toISOString().slice(0, 10), executions: 4, successes: 1 });
    expect(d.daily.slice(0, -1).every((p) => p.executions === 0)).toBe(true);
    // Without a scope, the hash's first scope ("" sorts first); with one, exactly that class.
    expect(await resolveClassKey(db, AGENT, H.u, undefined)).toEqual({ agentId: AGENT, userScope: "", canonicalHash: H.u });
    expect(await resolveClassKey(db, AGENT, H.u, "acct-1")).toEqual({ agentId: AGENT, userScope: "acct-1", canonicalHash: H.u });
    expect((await getClassDetail(db, { agentId: AGENT, userScope: "acct-1", canonicalHash: H.u }))!.executions).toBe(2);
    expect(await resolveClassKey(db, AGENT, "f".repeat(64), undefined)).toBeNull();
    expect(await getClassDetail(db, { agentId: AGENT, userScope: "", canonicalHash: "f".repeat(64) })).toBeNull();
  });

  it("all agents: rows carry their agent, the roll-up and the summary add up", async () => {
    const every = await listReviewClasses(db, { sort: "agent", dir: "desc", page: 1, page_size: 100 });
    expect(every.total).toBe(8);
    expect(every.rows[0]).toMatchObject({ agentId: "rq2", agentName: "Agent rq2", canonicalHash: H.other, status: "evidence" });
    expect((await listReviewClasses(db, { q: "rq2", sort: "status", page: 1, page_size: 10 })).rows.map((r) => r.agentId)).toEqual(["rq2"]);
    const agents = await agentConfigs(db);
    const byAgent = await classStatusCountsByAgent(db, agents, undefined, new Date());
    expect(every.countsByAgent).toEqual(byAgent);
    const summary = await workflowSummary(db, agents, totalCounts(byAgent));
    const runs = await server.sql.query("SELECT count(*)::int AS n, (count(*) FILTER (WHERE outcome = 'SUCCESS'))::int AS ok FROM workflows");
    expect(summary).toMatchObject({ recordedRuns: runs.rows[0].n, classedRuns: runs.rows[0].n, classedSuccesses: runs.rows[0].ok, classes: 8 });
    expect(summary.newestRun).toBeInstanceOf(Date);
    const rollup = await agentRollup(db, agents, byAgent, 1, 1);
    expect(rollup.total).toBe(2);
    expect(rollup.rows).toHaveLength(1);
    expect(rollup.rows[0]).toMatchObject({ id: "rq", classes: 7 });
    expect(Object.values(rollup.rows[0].counts).reduce((a, b) => a + b, 0)).toBe(7);
  });

  it("reports: newest first, paged, with the promoted skills' names", async () => {
    const { reports, total } = await latestReports(db, AGENT, 1, 2);
    expect(total).toBeGreaterThanOrEqual(3);
    expect(reports).toHaveLength(2);
    expect(reports[0].report.started_at >= reports[1].report.started_at).toBe(true);
    const promoted = reports[0].report.promoted[0];
    expect(reports[0].skills[promoted]).toMatchObject({ version: 2, status: "shadow" });
  });
});

describe(`review queries: skills (${dbKind})`, () => {
  it("filters by status, readiness, authority and text, sorts and pages", async () => {
    const base = { agent: AGENT, sort: "lifecycle" as const, page: 1, page_size: 50 };
    const every = await listReviewSkills(db, base);
    // Lifecycle order: active, shadow, candidate, deprecated, demoted.
    expect(every.rows.map((r) => r.status)).toEqual(["shadow", "shadow", "demoted"]);
    expect(every.totals.counts).toMatchObject({ active: 0, shadow: 2, demoted: 1, ready: 0 });
    expect(every.rows.filter((r) => r.status === "shadow").every((r) => r.readiness && !r.readiness.ready && r.readiness.observations === 0)).toBe(true);

    // Readiness from passive shadow statistics (written by the shadow evaluator in production).
    const target = every.rows.find((r) => r.status === "shadow")!;
    await server.sql.query(
      `UPDATE skills SET shadow_stats = '{"observations": 12, "trajectory_matches": 11, "trajectory_mismatches": 1, "matched_successes": 10, "matched_failures": 1}' WHERE id = $1`,
      [target.id],
    );
    const ready = await listReviewSkills(db, { ...base, status: "ready" });
    expect(ready.rows.map((r) => r.id)).toEqual([target.id]);
    expect(ready.rows[0].readiness).toMatchObject({ ready: true, observations: 12 });
    expect(ready.totals.counts.ready).toBe(1);

    expect((await listReviewSkills(db, { ...base, status: "demoted" })).rows.map((r) => [r.status, r.injectionRole])).toEqual([["demoted", "developer"]]);
    expect((await listReviewSkills(db, { ...base, authority: "developer" })).total).toBe(1);
    expect((await listReviewSkills(db, { ...base, authority: "user" })).total).toBe(2);
    expect((await listReviewSkills(db, { ...base, q: H.r2.slice(0, 12) })).rows.map((r) => r.sourceCanonicalHash)).toEqual([H.r2]);
    expect((await listReviewSkills(db, { ...base, q: "no such skill anywhere" })).total).toBe(0);
    const paged = [1, 2, 3].map((page) => listReviewSkills(db, { ...base, sort: "name", page, page_size: 1 }));
    const ids = (await Promise.all(paged)).flatMap((p) => p.rows.map((r) => r.id));
    expect(new Set(ids).size).toBe(3);
  });

  it("a skill's detail: versions, lifecycle, the source runs, and the audit only for admins", async () => {
    const demoted = (await listReviewSkills(db, { agent: AGENT, status: "demoted", sort: "lifecycle", page: 1, page_size: 5 })).rows[0];
    const d = (await getSkillDetail(db, demoted.id, { withAudit: true }))!;
    expect(d.skill).toMatchObject({ status: "demoted", injection_role: "developer", demotion_reason: "drifted in review" });
    expect(d.events.map((e) => e.event)).toEqual(["skill_demoted", "skill_activated", "skill_candidate_created"]);
    // Read through the typed union, as the audit page reads them.
    expect(d.audit.map((a) => a.event)).toEqual([
      { type: "skill.demoted", target: { type: "skill", id: demoted.id }, data: { agent_id: AGENT, version: 1, reason: "drifted in review" } },
      { type: "skill.activated", target: { type: "skill", id: demoted.id }, data: { agent_id: AGENT, version: 1, injection_role: "developer", reason: "reviewed" } },
    ]);
    // Named as the audit page names them (the summary links the skill and agent by name, not id).
    const agentName = (await db.agent.findUniqueOrThrow({ where: { id: AGENT } })).name;
    expect(d.auditNames.skill[demoted.id]).toEqual({ name: demoted.name, version: 1, agentId: AGENT });
    expect(d.auditNames.agent[AGENT]).toBe(agentName);
    expect(d.sourceRuns.length).toBeGreaterThan(0);
    expect(d.sourceRuns.every((r) => r.outcome === "SUCCESS")).toBe(true);
    expect(d.config.require_shadow).toBe(true);
    expect((await getSkillDetail(db, demoted.id, { withAudit: false }))!.audit).toEqual([]);
    expect(await getSkillDetail(db, "no-such-skill", { withAudit: true })).toBeNull();
  });
});
