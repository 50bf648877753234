// Incremental promotion cycles (lib/learning/classes/class-checks.ts) against full ones, on two
// databases holding the same data: A runs its cycles as production does (only the classes
// whose marks say they may have changed), B forgets its marks before every cycle (a full
// evaluation of every class). Through new runs, a class reaching its gates, promotions, a
// demotion and a run after it, and a change of the gate thresholds, the two report the same
// promotions, deferrals, skips and rejections; and A does trust its marks.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, type Db } from "@/lib/db/prisma";
import { systemAuditContext } from "@/lib/audit/record";
import { templateDistiller } from "@/lib/learning/distill/distiller";
import { ingestWorkflows } from "@/lib/learning/capture/ingest";
import { demoteSkill } from "@/lib/learning/operations";
import { promotionCycle, type PromotionReportView } from "@/lib/learning/skills/promotion";
import { openDomainDatabase, type DomainDatabase } from "../helpers/domain-database";
import { testDatabase } from "../helpers/server";

const AGENT = "checks";
const TOOLS = ["lookup_order", "issue_refund", "send_email", "open_ticket", "close_ticket"];
const DAY_MS = 86_400_000;
const audit = systemAuditContext("test");

type Side = { name: string; db: Db; database: DomainDatabase };
let sides: Side[] = [];

beforeAll(async () => {
  for (const name of ["incremental", "full"]) {
    const database = await openDomainDatabase();
    const db = createPrismaClient(database.url, 2);
    await db.agent.create({
      data: { id: AGENT, name: "Checks", tools: TOOLS.map((t) => ({ name: t, description: t })), learning: { learning_scope: "user", require_shadow: false, auto_activate: true, promotion_every_n_runs: 0, max_promotions_per_cycle: 1 } },
    });
    sides.push({ name, db, database });
  }
});
afterAll(async () => {
  for (const s of sides) {
    await s.db.$disconnect();
    await s.database.close();
  }
  sides = [];
});

let seq = 0;
/** `n` runs of one tool path (one class), `failures` of them failed, `daysAgo` old, distinct queries. */
function runs(path: string[], n: number, o: { failures?: number; daysAgo?: number; userId?: string } = {}) {
  const at = Date.now() - (o.daysAgo ?? 0) * DAY_MS;
  return Array.from({ length: n }, (_, i) => ({
    workflow_id: `w-${++seq}`,
    query: `case ${seq} about ${path.join(" and ")}`,
    steps: path.map((tool) => ({ tool, arguments: { id: seq }, result: { ok: true } })),
    outcome: i < (o.failures ?? 0) ? "failure" : "success",
    created_at: new Date(at - i * 1000).toISOString(),
    ...(o.userId ? { user_id: o.userId } : {}),
  }));
}

async function ingest(items: ReturnType<typeof runs>) {
  for (const s of sides) {
    const results = await ingestWorkflows(s.db, AGENT, items);
    expect(results.every((r) => r.status === 201)).toBe(true);
  }
}

/** A report with skill ids replaced by their classes, and without times and ids. */
async function normalized(db: Db, r: PromotionReportView) {
  const classOf = async (ids: string[]) =>
    (await db.skill.findMany({ where: { id: { in: ids } }, select: { id: true, userScope: true, sourceCanonicalHash: true } }))
      .sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id))
      .map((s) => `${s.userScope}/${s.sourceCanonicalHash}`);
  return {
    promoted: await classOf(r.promoted),
    deprecated: await classOf(r.deprecated),
    rejected: r.rejected,
    skipped: r.skipped,
    deferred: r.deferred,
    candidates_considered: r.candidates_considered,
    review_flags: r.review_flags,
  };
}

/** One cycle on each side (B forgets its marks first); the two reports must agree. */
async function cycleBoth() {
  const [a, b] = sides;
  await b.db.$executeRaw`UPDATE agents SET checked_gates = NULL`;
  const ra = await promotionCycle(a.db, AGENT, { trigger: "cadence", audit, distiller: templateDistiller });
  const rb = await promotionCycle(b.db, AGENT, { trigger: "cadence", audit, distiller: templateDistiller });
  const [na, nb] = [await normalized(a.db, ra), await normalized(b.db, rb)];
  expect(na).toEqual(nb);
  return na;
}

const unchecked = async (db: Db) =>
  (await db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM trajectory_classes WHERE checked_executions IS DISTINCT FROM executions`)[0].n;

const P = [0, 1, 2, 3].map((i) => [TOOLS[i], TOOLS[(i + 1) % 5]]);
const FAILING = ["issue_refund", "open_ticket"];
const FEW = ["send_email", "lookup_order"];
const STALE = ["close_ticket", "open_ticket"];
const USER_PATH = ["open_ticket", "send_email", "close_ticket"];

describe(`incremental promotion cycles (${testDatabase()})`, () => {
  it("report what full cycles report, through runs, promotions, a demotion and new thresholds", async () => {
    for (const [i, p] of P.entries()) await ingest(runs(p, 6 + i));
    await ingest([...runs(FAILING, 5, { failures: 3 }), ...runs(FEW, 3), ...runs(STALE, 6, { daysAgo: 40 }), ...runs(USER_PATH, 2, { userId: "acct-1" })]);

    // The first cycle evaluates everything (no marks yet): one promoted, three deferred.
    const first = await cycleBoth();
    expect(first.promoted).toHaveLength(1);
    expect(first.deferred).toHaveLength(3);
    expect(first.skipped.length).toBeGreaterThan(0);
    // Marked: every class but the four found eligible (the promoted one is judged covered next time).
    expect(await unchecked(sides[0].db)).toBe(4);

    // Nothing new: the next one looks at the eligible classes only, and promotes the next.
    const second = await cycleBoth();
    expect(second.promoted).toHaveLength(1);
    expect(second.deferred).toHaveLength(2);
    expect(second.skipped).toEqual([]);

    // A class reaches its gates with new runs (old timestamps: not "seen since"), another gets worse.
    await ingest([...runs(FEW, 3, { daysAgo: 2 }), ...runs(FAILING, 1, { failures: 1, daysAgo: 2 })]);
    const third = await cycleBoth();
    expect(third.candidates_considered).toBe(3);

    // A demotion uncovers a class: only runs after it count, then enough of them make it eligible again.
    const promoted = await sides[0].db.skill.findFirst({ where: { agentId: AGENT, status: "ACTIVE" }, orderBy: { createdAt: "asc" }, select: { sourceCanonicalHash: true } });
    for (const s of sides) {
      const skill = await s.db.skill.findFirstOrThrow({ where: { agentId: AGENT, sourceCanonicalHash: promoted!.sourceCanonicalHash, status: "ACTIVE" } });
      await demoteSkill(s.db, { skillId: skill.id, reason: "drifted" }, audit);
    }
    await cycleBoth();
    const demotedPath = await sides[0].db.trajectoryClass.findFirstOrThrow({ where: { agentId: AGENT, canonicalHash: promoted!.sourceCanonicalHash, userScope: "" } });
    // A minute ahead: after the demotion, within the 5 minutes a live run may be dated ahead of its receipt.
    await ingest(runs(demotedPath.tools, 5, { daysAgo: -60_000 / DAY_MS }));
    const afterDemotion = await cycleBoth();
    expect([...afterDemotion.promoted, ...afterDemotion.deferred.map((h) => `/${h}`)]).toContain(`/${promoted!.sourceCanonicalHash}`);

    // Lower thresholds: every class is judged again (the user-scoped class of 2 runs becomes eligible).
    for (const s of sides) {
      await s.db.agent.update({ where: { id: AGENT }, data: { learning: { learning_scope: "user", require_shadow: false, auto_activate: true, promotion_every_n_runs: 0, max_promotions_per_cycle: 1, min_executions: 2 } } });
    }
    const userClass = await sides[0].db.trajectoryClass.findFirstOrThrow({ where: { agentId: AGENT, userScope: "acct-1" } });
    expect(await sides[0].db.trajectoryClass.findFirst({ where: { agentId: AGENT, userScope: "acct-1", checkedExecutions: 2 } })).not.toBeNull();
    const lowered = await cycleBoth();
    expect([...lowered.promoted, ...lowered.deferred.map((h) => `acct-1/${h}`)]).toContain(`acct-1/${userClass.canonicalHash}`);
    await cycleBoth();

    // A retirement that committed after the previous cycle read the skills, though dated before
    // it: the class was marked as covered and nothing about it is "seen since", yet it is judged.
    const covered = await sides[0].db.skill.findFirstOrThrow({ where: { agentId: AGENT, status: "ACTIVE", userScope: "" }, orderBy: { createdAt: "asc" } });
    const cls = await sides[0].db.trajectoryClass.findFirstOrThrow({ where: { agentId: AGENT, userScope: "", canonicalHash: covered.sourceCanonicalHash } });
    expect(cls.checkedExecutions).toBe(cls.executions);
    for (const s of sides) {
      await s.db.$executeRaw`UPDATE skills SET status = 'DEMOTED', demoted_at = ${cls.firstSeen} WHERE agent_id = ${AGENT} AND source_canonical_hash = ${covered.sourceCanonicalHash} AND status = 'ACTIVE'`;
    }
    const uncovered = await cycleBoth();
    expect([...uncovered.promoted, ...uncovered.deferred.map((h) => `/${h}`)]).toContain(`/${covered.sourceCanonicalHash}`);
  });

  it("trusts a class's mark: a class marked as judged is not evaluated again until it changes", async () => {
    const [a] = sides;
    await ingest([...runs(["close_ticket", "lookup_order"], 6), ...runs(["close_ticket", "send_email", "issue_refund"], 7)]);
    const before = await promotionCycle(a.db, AGENT, { trigger: "cadence", audit, distiller: templateDistiller });
    const deferred = before.deferred[0];
    expect(deferred).toBeTruthy();
    await a.db.$executeRaw`UPDATE trajectory_classes SET checked_executions = executions WHERE agent_id = ${AGENT} AND canonical_hash = ${deferred}`;
    const trusting = await promotionCycle(a.db, AGENT, { trigger: "cadence", audit, distiller: templateDistiller });
    expect([...trusting.deferred, ...trusting.promoted]).not.toContain(deferred);
    // Other thresholds make the marks void: the class is back.
    await a.db.$executeRaw`UPDATE agents SET checked_gates = NULL WHERE id = ${AGENT}`;
    const full = await promotionCycle(a.db, AGENT, { trigger: "cadence", audit, distiller: templateDistiller });
    expect(await normalized(a.db, full).then((r) => [...r.deferred, ...r.promoted.map((c) => c.split("/")[1])])).toContain(deferred);
  });
});
