// One trajectory class for the review page's detail panel: the engine's gate verdict, the
// skills that cover or covered it, a 30-day daily success series (from the maintained daily
// counters) and a page of its newest runs (through the class index).
import type { Db } from "../../db/prisma";
import { distinctUsersThreshold, resolveLearningConfig, type LearningScope } from "../agents/config";
import { evaluateClasses, type Gate } from "../classes/class-gates";
import type { GateStats } from "../classes/gates";
import type { ClassStatus } from "./status";
import { observedFailureModes, toSampleRun, type FailureMode } from "../distill/sample-run";

export type ClassKey = { agentId: string; userScope: string; canonicalHash: string };

export type SkillLink = { id: string; name: string; version: number; status: string; demotedAt: Date | null; demotionReason: string | null };

export type DailyPoint = { day: string; executions: number; successes: number };

export type ClassDetail = {
  key: ClassKey;
  agentName: string;
  tools: string[];
  executions: number;
  successes: number;
  distinctQueries: number;
  /** Distinct accounts among the successful runs. */
  distinctUsers: number;
  /** The agent's learning scope, and the distinct accounts its gate needs (0: not gated). */
  learningScope: LearningScope;
  minDistinctUsers: number;
  firstSeen: Date;
  lastSeen: Date;
  status: ClassStatus;
  eligible: boolean;
  gates: Gate[];
  /** The statistics the gates used (after the last retirement when `since` is set). */
  gateStats: GateStats;
  since: Date | null;
  live: SkillLink | null;
  retired: SkillLink | null;
  daily: DailyPoint[];
  /** Failure modes observed in the class's newest failed runs (`failuresSampled` of them). */
  failureModes: FailureMode[];
  failuresSampled: number;
};

export const CHART_DAYS = 30;
/** Newest failed runs read for the failure modes (as many as the distiller would sample, and then some). */
export const FAILURES_SAMPLED = 20;
const DAY_MS = 86_400_000;

export async function getClassDetail(db: Db, key: ClassKey, now: Date = new Date()): Promise<ClassDetail | null> {
  const row = await db.trajectoryClass.findUnique({
    where: { agentId_userScope_canonicalHash: key },
    select: {
      agentId: true,
      userScope: true,
      canonicalHash: true,
      tools: true,
      executions: true,
      successes: true,
      distinctQueries: true,
      distinctUsers: true,
      firstSeen: true,
      lastSeen: true,
      agent: { select: { name: true, learning: true } },
    },
  });
  if (!row) return null;
  const { agent, ...stats } = row;
  const config = resolveLearningConfig(agent.learning);
  const [e] = await evaluateClasses(db, config, [stats], now);
  const ids = [e.live?.id, e.retired?.id].filter((x): x is string => Boolean(x));
  const [[{ status }], skills, daily, failures] = await Promise.all([
    // The review list's status rule (class_review_status) over the engine's verdict.
    db.$queryRaw<{ status: ClassStatus }[]>`
      SELECT class_review_status(${e.live?.status ?? null}, ${e.verdict.failures}::int, ${e.stats.executions}::int, ${e.stats.successes}::int) AS status`,
    ids.length ? db.skill.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, version: true, status: true, demotedAt: true, demotionReason: true } }) : Promise.resolve([]),
    dailySeries(db, key, now),
    stats.executions > stats.successes ? newestFailures(db, key) : Promise.resolve([]),
  ]);
  const link = (id: string | undefined): SkillLink | null => {
    const s = skills.find((x) => x.id === id);
    return s ? { ...s, status: s.status.toLowerCase() } : null;
  };
  return {
    key,
    agentName: agent.name,
    tools: stats.tools,
    executions: stats.executions,
    successes: stats.successes,
    distinctQueries: stats.distinctQueries,
    distinctUsers: stats.distinctUsers,
    learningScope: config.learning_scope,
    minDistinctUsers: distinctUsersThreshold(config),
    firstSeen: stats.firstSeen,
    lastSeen: stats.lastSeen,
    status,
    eligible: e.verdict.eligible,
    gates: e.verdict.gates,
    gateStats: e.stats,
    since: e.since,
    live: link(e.live?.id),
    retired: link(e.retired?.id),
    daily,
    failureModes: observedFailureModes(failures.map(toSampleRun)),
    failuresSampled: failures.length,
  };
}

function newestFailures(db: Db, key: ClassKey) {
  return db.workflowRun.findMany({
    where: { ...key, outcome: "FAILURE" },
    select: { workflowId: true, query: true, outcome: true, steps: true },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: FAILURES_SAMPLED,
  });
}

/** The last CHART_DAYS UTC days ending today, zeros where the class had no runs. */
async function dailySeries(db: Db, key: ClassKey, now: Date = new Date()): Promise<DailyPoint[]> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const from = new Date(today - (CHART_DAYS - 1) * DAY_MS);
  const rows = await db.trajectoryClassDay.findMany({
    where: { ...key, day: { gte: from } },
    select: { day: true, executions: true, successes: true },
  });
  const byDay = new Map(rows.map((r) => [r.day.toISOString().slice(0, 10), r]));
  return Array.from({ length: CHART_DAYS }, (_, i) => {
    const day = new Date(from.getTime() + i * DAY_MS).toISOString().slice(0, 10);
    const r = byDay.get(day);
    return { day, executions: r?.executions ?? 0, successes: r?.successes ?? 0 };
  });
}

export type ClassRun = { id: string; workflowId: string; userId: string | null; query: string; outcome: "SUCCESS" | "FAILURE"; createdAt: Date; promotedSkillId: string | null };

/** Newest first. The total is the class's maintained execution count, not a count query. */
export async function listClassRuns(db: Db, key: ClassKey, page: number, pageSize: number): Promise<ClassRun[]> {
  return db.workflowRun.findMany({
    where: key,
    select: { id: true, workflowId: true, userId: true, query: true, outcome: true, createdAt: true, promotedSkillId: true },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: (page - 1) * pageSize,
    take: pageSize,
  });
}

/** A class link without a user scope (e.g. a deferred hash in a report): the class's first scope. */
export async function resolveClassKey(db: Db, agentId: string, canonicalHash: string, userScope: string | undefined): Promise<ClassKey | null> {
  if (userScope !== undefined) return { agentId, userScope, canonicalHash };
  const row = await db.trajectoryClass.findFirst({
    where: { agentId, canonicalHash },
    orderBy: [{ userScope: "asc" }],
    select: { userScope: true },
  });
  return row ? { agentId, userScope: row.userScope, canonicalHash } : null;
}
