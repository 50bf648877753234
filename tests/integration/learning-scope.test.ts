// Learning scope over the real HTTP API, on both databases (the ingestion statement keeps the
// distinct accounts): a new agent pools its accounts, so eight accounts refunding once each
// give one class and, after a promotion cycle, one shadow skill that an admin activates and a
// ninth account then receives; one account repeating the refund eight times gets nothing (the
// distinct-accounts gate names why); learning_scope "user" keeps two tenants' skills apart while
// agent-wide skills reach both; changing the scope regroups the runs (audited) and re-declaring
// an agent without it keeps its scope, and a MemoRizz import keeps MemoRizz's per-account scope;
// forgetting an account of a pooled agent strips its runs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";
import { call, login, type Caller } from "../helpers/http";
import { callAction } from "../helpers/actions";
import { admin, context, cycle, getSkill, refundRun, REFUND_TOOLS } from "../helpers/learning";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createPrismaClient } from "@/lib/db/prisma";
import { systemAuditContext } from "@/lib/audit/record";
import { importMemorizz } from "@/lib/learning/operations";
import { readMemorizzFile } from "@/lib/learning/skills-io/memorizz-documents";

let server: TestServer;
let session: Caller;
beforeAll(async () => {
  server = await startTestServer();
  session = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
});
afterAll(async () => {
  await server?.stop();
});

const db = process.env.PROCTOR_TEST_DB ?? "pglite";

/** Declares the agent as an operator would: only a name, its tools and what the test sets. */
async function declare(agentId: string, learning?: Record<string, unknown>) {
  const r = await call(server.baseUrl, admin, "PUT", `/api/v1/agents/${agentId}`, { name: `Agent ${agentId}`, tools: REFUND_TOOLS, ...(learning ? { learning } : {}) });
  expect(r.status, r.text).toBe(200);
  return r.json;
}

async function ingest(agentId: string, workflows: unknown[]) {
  const r = await call(server.baseUrl, admin, "POST", `/api/v1/agents/${agentId}/workflows/batch`, { workflows });
  expect(r.status, r.text).toBe(207);
  expect(r.json.results.every((x: { status: number }) => x.status === 201), r.text).toBe(true);
  return r.json.results as { id: string; canonical_hash: string }[];
}

type ClassView = { canonical_hash: string; user_id: string | null; executions: number; distinct_users: number; eligible: boolean; gates: { name: string; passed: boolean; detail: string; reason?: string }[] };

async function classes(agentId: string): Promise<ClassView[]> {
  const r = await call(server.baseUrl, admin, "GET", `/api/v1/agents/${agentId}/classes?limit=100`);
  expect(r.status, r.text).toBe(200);
  return r.json.classes;
}

async function activate(skillId: string) {
  const r = await call(server.baseUrl, admin, "POST", `/api/v1/skills/${skillId}/activate`, { reason: "reviewed: a generic refund procedure" });
  expect(r.status, r.text).toBe(200);
}

const ACCOUNTS = Array.from({ length: 8 }, (_, i) => `acct-${i + 1}`);
const refundOf = (userId: string, i: number) => refundRun({ userId, orderId: `ORD-${7000 + i}`, query: `Refund order ORD-${7000 + i}, it arrived broken` });
const auditRows = async (agentId: string, action: string) =>
  (await server.sql.query("SELECT details FROM audit_events WHERE target_type = 'agent' AND target_id = $1 AND action = $2 ORDER BY id", [agentId, action])).rows.map((r) => r.details);

describe(`pooled learning, the default for a new agent (${db})`, () => {
  it("eight accounts refunding once give one shadow skill; activated, a ninth account's refund gets it", async () => {
    const agent = await declare("pooled-shop");
    expect(agent.learning).toMatchObject({ learning_scope: "agent", min_distinct_users: 3, require_shadow: true });

    const runs = await ingest("pooled-shop", ACCOUNTS.map((u, i) => refundOf(u, i)));
    const [cls] = await classes("pooled-shop");
    expect(await classes("pooled-shop")).toHaveLength(1);
    expect(cls).toMatchObject({ canonical_hash: runs[0].canonical_hash, user_id: null, executions: 8, distinct_users: 8, eligible: true });
    expect(cls.gates.find((g) => g.name === "distinct_users")).toEqual({ name: "distinct_users", passed: true, detail: "8 / 3 distinct accounts" });

    const report = await cycle(server, "pooled-shop");
    expect(report.learning_scope).toBe("agent");
    expect(report.rejected).toEqual([]);
    expect(report.promoted).toHaveLength(1);
    const skill = await getSkill(server, report.promoted[0]);
    expect(skill).toMatchObject({ status: "shadow", user_id: null, source_canonical_hash: cls.canonical_hash });
    // The leak check kept every account's literals out of the skill every account receives.
    for (let i = 0; i < ACCOUNTS.length; i++) expect(skill.content).not.toContain(`ORD-${7000 + i}`);

    // In shadow nothing is injected; once an admin activates it, any account gets it.
    const ninth = { query: "Refund order ORD-9999, it arrived broken", user_id: "acct-9" };
    expect((await context(server, "pooled-shop", ninth)).skills).toEqual([]);
    await activate(skill.skill_id);
    const ctx = await context(server, "pooled-shop", ninth);
    expect(ctx.skills.map((s: { skill_id: string }) => s.skill_id)).toEqual([skill.skill_id]);
    expect(ctx.messages.at(-1).content).toContain(skill.content);
    // A request without an account gets the agent-wide skill too.
    expect((await context(server, "pooled-shop", { query: ninth.query })).skills.map((s: { skill_id: string }) => s.skill_id)).toEqual([skill.skill_id]);
  });

  it("one account repeating the refund eight times gets nothing, and the gate says why", async () => {
    await declare("habit-shop");
    await ingest("habit-shop", Array.from({ length: 8 }, (_, i) => refundOf("acct-habit", i)));
    const [cls] = await classes("habit-shop");
    expect(cls).toMatchObject({ user_id: null, executions: 8, distinct_users: 1, eligible: false });
    const failed = cls.gates.filter((g) => !g.passed);
    expect(failed).toEqual([{ name: "distinct_users", passed: false, detail: "1 / 3 distinct accounts", reason: "distinct_users 1 < 3" }]);

    const report = await cycle(server, "habit-shop");
    expect(report.promoted).toEqual([]);
    expect(report.skipped).toEqual([{ canonical_hash: cls.canonical_hash, user_id: null, distinct_users: 1, reason: "distinct_users 1 < 3" }]);
    expect((await server.sql.query("SELECT count(*)::int AS n FROM skills WHERE agent_id = 'habit-shop'")).rows[0].n).toBe(0);
    expect((await context(server, "habit-shop", { query: "Refund order ORD-7001", user_id: "acct-habit" })).skills).toEqual([]);

    // A failed run of another account is no distinct account; a second and third successful one are.
    await ingest("habit-shop", [refundRun({ userId: "acct-other", failed: true, query: "Refund order ORD-8101 now" })]);
    expect((await classes("habit-shop")).find((c) => c.canonical_hash === cls.canonical_hash)?.distinct_users).toBe(1);
    await ingest("habit-shop", [refundOf("acct-two", 20), refundOf("acct-three", 21)]);
    const now = (await classes("habit-shop")).find((c) => c.canonical_hash === cls.canonical_hash)!;
    expect(now).toMatchObject({ distinct_users: 3, eligible: true });
  });

  it("runs without any account are gated as before", async () => {
    await declare("anon-shop");
    await ingest("anon-shop", Array.from({ length: 5 }, (_, i) => refundRun({ orderId: `ORD-${6100 + i}`, query: `Refund order ORD-${6100 + i} please` })));
    const [cls] = await classes("anon-shop");
    expect(cls).toMatchObject({ distinct_users: 0, eligible: true });
    expect(cls.gates.find((g) => g.name === "distinct_users")?.detail).toBe("no account on the successful runs (not gated)");
  });
});

describe(`learning_scope "user" (${db})`, () => {
  const tenants = ["tenant-a", "tenant-b"];

  it("keeps two tenants' skills apart; agent-wide skills reach both", async () => {
    const agent = await declare("tenant-shop", { learning_scope: "user", require_shadow: false, auto_activate: true, promotion_every_n_runs: 0 });
    expect(agent.learning.learning_scope).toBe("user");
    for (const [t, tenant] of tenants.entries()) {
      await ingest("tenant-shop", Array.from({ length: 5 }, (_, i) => refundOf(tenant, t * 10 + i)));
    }
    // Runs without an account, of another procedure (look up, email): an agent-wide class.
    await ingest(
      "tenant-shop",
      Array.from({ length: 5 }, (_, i) => refundRun({ emailPath: true, orderId: `ORD-${6200 + i}`, query: `Email the shipping status of order ORD-${6200 + i}` })),
    );
    const listed = await classes("tenant-shop");
    expect(listed.map((c) => [c.user_id, c.distinct_users, c.eligible]).sort()).toEqual([
      [null, 0, true],
      ["tenant-a", 1, true],
      ["tenant-b", 1, true],
    ].sort());
    expect(listed.find((c) => c.user_id === "tenant-a")!.gates.find((g) => g.name === "distinct_users")?.detail).toBe("1 account (per-account scope: not gated)");

    const report = await cycle(server, "tenant-shop");
    expect(report.learning_scope).toBe("user");
    expect(report.promoted).toHaveLength(3);
    const skills = await Promise.all(report.promoted.map((id: string) => getSkill(server, id)));
    const byUser = new Map(skills.map((s) => [s.user_id, s]));
    expect([...byUser.keys()].sort()).toEqual([null, "tenant-a", "tenant-b"].sort());

    const refund = (user_id?: string) => context(server, "tenant-shop", { query: "Refund order ORD-5555, it arrived broken", ...(user_id ? { user_id } : {}) });
    const ids = (ctx: { skills: { skill_id: string }[] }) => ctx.skills.map((s) => s.skill_id);
    expect(ids(await refund("tenant-a"))).toEqual([byUser.get("tenant-a").skill_id]);
    expect(ids(await refund("tenant-b"))).toEqual([byUser.get("tenant-b").skill_id]);
    expect(ids(await refund("tenant-c"))).toEqual([]);
    expect(ids(await refund())).toEqual([]);
    // The agent-wide skill reaches each tenant (and a request without an account).
    const email = (user_id?: string) => context(server, "tenant-shop", { query: "Email the shipping status of order ORD-6299", ...(user_id ? { user_id } : {}) });
    for (const who of ["tenant-a", "tenant-b", undefined]) expect(ids(await email(who)), String(who)).toEqual([byUser.get(null).skill_id]);

    // Its use by a tenant is monitored: the tenant's run that reports it counts as an activation.
    await ingest("tenant-shop", [{ ...refundRun({ emailPath: true, userId: "tenant-a", orderId: "ORD-6300", query: "Email the status of ORD-6300" }), skills_activated: [byUser.get(null).skill_id] }]);
    expect((await getSkill(server, byUser.get(null).skill_id)).stats.activations).toBe(1);
  });

  it("re-declaring without learning_scope keeps it; changing it regroups the runs and rebuilds the classes, audited", async () => {
    const again = await declare("tenant-shop", { require_shadow: false, auto_activate: true, promotion_every_n_runs: 0 });
    expect(again.learning.learning_scope).toBe("user");
    expect(await auditRows("tenant-shop", "learning_scope.changed")).toEqual([]);

    // To "agent" through PUT: one refund class of both tenants (2 accounts: under the gate of 3).
    await declare("tenant-shop", { learning_scope: "agent", require_shadow: false, auto_activate: true, promotion_every_n_runs: 0 });
    const pooled = await classes("tenant-shop");
    const refundHash = pooled.find((c) => c.executions === 10)?.canonical_hash;
    expect(pooled.map((c) => [c.user_id, c.executions, c.distinct_users]).sort()).toEqual([
      [null, 10, 2],
      [null, 6, 1],
    ].sort());
    expect(pooled.find((c) => c.canonical_hash === refundHash)!.gates.find((g) => g.name === "coverage")?.passed).toBe(true);
    expect(await auditRows("tenant-shop", "learning_scope.changed")).toEqual([{ from: "user", to: "agent", runs_rescoped: 11, classes_rebuilt: 5, trigger: "agent_update" }]);
    // New runs land in the pooled classes.
    await ingest("tenant-shop", [refundOf("tenant-c", 30)]);
    expect((await classes("tenant-shop")).find((c) => c.canonical_hash === refundHash)).toMatchObject({ user_id: null, executions: 11, distinct_users: 3 });

    // Back to "user" through the settings page's operation.
    const current = (await call(server.baseUrl, admin, "GET", "/api/v1/agents/tenant-shop")).json.learning;
    const saved = await callAction(server, session, "lib/actions/learning.ts#saveLearningSettings", { agent_id: "tenant-shop", learning: { ...current, learning_scope: "user" } });
    expect(saved.kind, saved.text).toBe("ok");
    const split = await classes("tenant-shop");
    expect(split.filter((c) => c.canonical_hash === refundHash).map((c) => [c.user_id, c.executions]).sort()).toEqual([
      ["tenant-a", 5],
      ["tenant-b", 5],
      ["tenant-c", 1],
    ]);
    const changes = await auditRows("tenant-shop", "learning_scope.changed");
    expect(changes.at(-1)).toEqual({ from: "agent", to: "user", runs_rescoped: 12, classes_rebuilt: 6, trigger: "settings" });
    expect((await auditRows("tenant-shop", "learning_config.updated")).at(-1).changed).toEqual({ learning_scope: { from: "agent", to: "user" } });
    // The classes' statistics are the runs' own (the rebuild counts them as ingestion does).
    const drift = await server.sql.query(`
      SELECT c.user_scope FROM trajectory_classes c
      WHERE c.agent_id = 'tenant-shop' AND (c.executions, c.distinct_users) <> (
        SELECT count(*)::int, (count(DISTINCT w.user_id) FILTER (WHERE w.outcome = 'SUCCESS'))::int FROM workflows w
        WHERE (w.agent_id, w.user_scope, w.canonical_hash) = (c.agent_id, c.user_scope, c.canonical_hash))`);
    expect(drift.rows).toEqual([]);
  });
});

describe(`MemoRizz import (${db})`, () => {
  it("sets a pooled agent to per-account classes first, audited, so imported runs keep their accounts' scopes", async () => {
    await declare("mz-pooled");
    await ingest("mz-pooled", [refundOf("acct-x", 300), refundOf("acct-y", 301)]);
    expect((await classes("mz-pooled")).map((c) => c.user_id)).toEqual([null]);
    // The fixture's first workflow, for this agent and an account.
    const [first] = readFileSync(path.resolve(import.meta.dirname, "../fixtures/memorizz.jsonl"), "utf8").split("\n");
    const doc = { ...JSON.parse(first), agent_id: "mz-pooled", workflow_id: "mz-1", user_id: "acct-mz" };
    const client = createPrismaClient(server.databaseUrl, 1);
    try {
      const report = await importMemorizz(client, { documents: readMemorizzFile(JSON.stringify(doc)).documents }, systemAuditContext("import:memorizz"));
      expect(report.workflows).toEqual({ imported: 1, already: 0 });
    } finally {
      await client.$disconnect();
    }
    expect((await call(server.baseUrl, admin, "GET", "/api/v1/agents/mz-pooled")).json.learning.learning_scope).toBe("user");
    expect(await auditRows("mz-pooled", "learning_scope.changed")).toEqual([{ from: "agent", to: "user", runs_rescoped: 2, classes_rebuilt: 3, trigger: "memorizz_import" }]);
    expect((await classes("mz-pooled")).map((c) => c.user_id).sort()).toEqual(["acct-mz", "acct-x", "acct-y"]);
  });
});

describe(`forgetting an account of a pooled agent (${db})`, () => {
  it("strips its runs and removes its queries from the pooled class and skill, keeping the counts", async () => {
    await declare("forget-shop", { require_shadow: false, auto_activate: true, promotion_every_n_runs: 0 });
    const users = ["acct-f1", "acct-f2", "acct-f3"];
    await ingest("forget-shop", users.flatMap((u, i) => [refundOf(u, 100 + i * 2), refundOf(u, 101 + i * 2)]));
    const report = await cycle(server, "forget-shop");
    expect(report.promoted).toHaveLength(1);
    const before = await getSkill(server, report.promoted[0]);
    const [cls] = await classes("forget-shop");

    const r = await call(server.baseUrl, admin, "DELETE", "/api/v1/accounts/acct-f2?reason=asked%20to%20be%20forgotten");
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ forgotten: true, runs_forgotten: 2, skills_cleared: 1 });

    // Its runs stay, stripped, under one keyed name: still one of the class's three accounts.
    const runs = await server.sql.query("SELECT query, user_id FROM workflows WHERE agent_id = 'forget-shop' AND forgotten_at IS NOT NULL");
    expect(runs.rows).toHaveLength(2);
    expect(runs.rows.every((r) => r.query === "" && r.user_id === runs.rows[0].user_id && r.user_id.startsWith("forgotten:"))).toBe(true);
    const queries = (await server.sql.query("SELECT normalized_query FROM trajectory_class_queries WHERE agent_id = 'forget-shop'")).rows.map((x) => x.normalized_query);
    expect(queries).toHaveLength(6);
    expect(queries.filter((q) => q.startsWith("removed:"))).toHaveLength(2);
    expect(queries.some((q) => /ord-710[23]/i.test(q))).toBe(false);
    expect((await classes("forget-shop"))[0]).toMatchObject({ canonical_hash: cls.canonical_hash, executions: 6, distinct_users: 3 });
    const after = await getSkill(server, before.skill_id);
    expect(after.queries.length).toBeLessThan(before.queries.length);
    expect(after.queries.some((q: string) => /ORD-710[23]/.test(q))).toBe(false);
    expect(after.queries.some((q: string) => /ORD-7100/.test(q))).toBe(true);
  });
});
