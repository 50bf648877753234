// The engine's verdict on trajectory classes: gates, eligibility, ranking score and the live
// skill. Reads the write-time class statistics; never scans the workflows table for the class
// list. After a demotion or deprecation, every gate, the score (and, in the cycle, the
// baseline and the samples) use only the runs created after it: one indexed query on
// workflows (agent_id, user_scope, canonical_hash, created_at) for just those classes.
import type { Db, Tx } from "../db/prisma";
import type { LearningConfig } from "./config";
import { evaluateGates, rankScore, type GateResult, type GateStats, type GateVerdict } from "./gates";

export type ClassStatsRow = {
  agentId: string;
  userScope: string;
  canonicalHash: string;
  tools: string[];
  executions: number;
  successes: number;
  distinctQueries: number;
  firstSeen: Date;
  lastSeen: Date;
};

/** A trajectory_classes row as raw queries select it (snake case). */
export type ClassSqlRow = {
  agent_id: string;
  user_scope: string;
  canonical_hash: string;
  tools: string[];
  executions: number;
  successes: number;
  distinct_queries: number;
  first_seen: Date;
  last_seen: Date;
};

export function classStatsRowOf(r: ClassSqlRow): ClassStatsRow {
  return {
    agentId: r.agent_id,
    userScope: r.user_scope,
    canonicalHash: r.canonical_hash,
    tools: r.tools,
    executions: r.executions,
    successes: r.successes,
    distinctQueries: r.distinct_queries,
    firstSeen: r.first_seen,
    lastSeen: r.last_seen,
  };
}

export type Gate = GateResult;

export type ClassVerdict = {
  eligible: boolean;
  score: number;
  gates: Gate[];
  live_skill: { skill_id: string; status: string } | null;
  /** When set, the gates and score count only runs created after this retirement time. */
  window_start: string | null;
};

export type SkillRef = {
  id: string;
  status: "CANDIDATE" | "SHADOW" | "ACTIVE" | "DEPRECATED" | "DEMOTED";
  version: number;
  demotedAt: Date | null;
  demotionReason: string | null;
};

export type ClassEvaluation = {
  row: ClassStatsRow;
  /** The statistics the gates used: the whole class, or the window after the last retirement. */
  stats: GateStats;
  since: Date | null;
  live: SkillRef | null;
  retired: SkillRef | null;
  maxVersion: number;
  verdict: GateVerdict;
  score: number;
};

const LIVE = new Set(["CANDIDATE", "SHADOW", "ACTIVE"]);
const keyOf = (scope: string, hash: string) => `${scope}\u0000${hash}`;

/** A skill of a class as the class queries select it (snake case). */
export type ClassSkillRow = { id: string; user_scope: string; source_canonical_hash: string; status: SkillRef["status"]; version: number; demoted_at: Date | null; demotion_reason: string | null };
type WindowRow = { scope: string; hash: string; executions: number; successes: number; distinct_queries: number; first_seen: Date | null; last_seen: Date | null };

async function skillsOfClasses(db: Db | Tx, agentId: string, rows: ClassStatsRow[]): Promise<Map<string, ClassSkillRow[]>> {
  const scopes = rows.map((r) => r.userScope);
  const hashes = rows.map((r) => r.canonicalHash);
  const found = await db.$queryRaw<ClassSkillRow[]>`
    SELECT id, user_scope, source_canonical_hash, status::text AS status, version, demoted_at, demotion_reason
    FROM skills
    WHERE agent_id = ${agentId}
      AND (user_scope, source_canonical_hash) IN (SELECT * FROM unnest(${scopes}::text[], ${hashes}::text[]))`;
  const out = new Map<string, ClassSkillRow[]>();
  for (const s of found) {
    const k = keyOf(s.user_scope, s.source_canonical_hash);
    out.set(k, [...(out.get(k) ?? []), s]);
  }
  return out;
}

/** Class statistics over the runs created after `since`, for several classes in one query. */
export async function windowStats(db: Db | Tx, agentId: string, windows: { userScope: string; canonicalHash: string; since: Date }[]): Promise<Map<string, GateStats>> {
  const out = new Map<string, GateStats>();
  if (windows.length === 0) return out;
  const rows = await db.$queryRaw<WindowRow[]>`
    SELECT k.scope, k.hash,
           count(w.id)::int AS executions,
           (count(w.id) FILTER (WHERE w.outcome = 'SUCCESS'))::int AS successes,
           count(DISTINCT NULLIF(w.normalized_query, ''))::int AS distinct_queries,
           min(w.created_at) AS first_seen, max(w.created_at) AS last_seen
    FROM unnest(${windows.map((w) => w.userScope)}::text[], ${windows.map((w) => w.canonicalHash)}::text[],
                ${windows.map((w) => w.since.toISOString())}::text[]) AS k(scope, hash, since)
    LEFT JOIN workflows w
      ON w.agent_id = ${agentId} AND w.user_scope = k.scope AND w.canonical_hash = k.hash AND w.created_at > k.since::timestamptz
    GROUP BY k.scope, k.hash`;
  for (const r of rows) {
    out.set(keyOf(r.scope, r.hash), {
      executions: r.executions,
      successes: r.successes,
      distinctQueries: r.distinct_queries,
      firstSeen: r.first_seen,
      lastSeen: r.last_seen,
    });
  }
  return out;
}

const toRef = (s: ClassSkillRow): SkillRef => ({ id: s.id, status: s.status, version: s.version, demotedAt: s.demoted_at, demotionReason: s.demotion_reason });

/** Rows must belong to one agent (the one whose config is given). */
export async function evaluateClasses(db: Db | Tx, config: LearningConfig, rows: ClassStatsRow[], now: Date): Promise<ClassEvaluation[]> {
  if (rows.length === 0) return [];
  const skills = await skillsOfClasses(db, rows[0].agentId, rows);
  return evaluateClassesWithSkills(db, config, rows.map((row) => ({ row, skills: skills.get(keyOf(row.userScope, row.canonicalHash)) ?? [] })), now);
}

/** As evaluateClasses, for rows whose skills the caller already read (the classes API reads both in one statement). */
export async function evaluateClassesWithSkills(
  db: Db | Tx,
  config: LearningConfig,
  classes: { row: ClassStatsRow; skills: ClassSkillRow[] }[],
  now: Date,
): Promise<ClassEvaluation[]> {
  if (classes.length === 0) return [];
  const agentId = classes[0].row.agentId;
  const prepared = classes.map(({ row, skills: list }) => {
    const live = list.filter((s) => LIVE.has(s.status)).sort((a, b) => b.version - a.version)[0] ?? null;
    const retired =
      list
        .filter((s) => !LIVE.has(s.status) && s.demoted_at)
        .sort((a, b) => b.demoted_at!.getTime() - a.demoted_at!.getTime() || b.version - a.version)[0] ?? null;
    const maxVersion = list.reduce((m, s) => Math.max(m, s.version), 0);
    return { row, live, retired, maxVersion };
  });
  const windows = await windowStats(
    db,
    agentId,
    prepared.filter((p) => p.retired).map((p) => ({ userScope: p.row.userScope, canonicalHash: p.row.canonicalHash, since: p.retired!.demoted_at! })),
  );
  return prepared.map(({ row, live, retired, maxVersion }) => {
    const since = retired?.demoted_at ?? null;
    const stats: GateStats = since
      ? windows.get(keyOf(row.userScope, row.canonicalHash)) ?? { executions: 0, successes: 0, distinctQueries: 0, firstSeen: null, lastSeen: null }
      : { executions: row.executions, successes: row.successes, distinctQueries: row.distinctQueries, firstSeen: row.firstSeen, lastSeen: row.lastSeen };
    const verdict = evaluateGates(stats, config, { covered: live !== null, since, now });
    return {
      row,
      stats,
      since,
      live: live ? toRef(live) : null,
      retired: retired ? toRef(retired) : null,
      maxVersion,
      verdict,
      score: verdict.eligible ? rankScore(stats, config, now) : 0,
    };
  });
}

/** The verdict of one evaluated class as the classes API returns it. */
export function classVerdictOf(e: ClassEvaluation): ClassVerdict {
  return {
    eligible: e.verdict.eligible,
    score: e.score,
    gates: e.verdict.gates,
    live_skill: e.live ? { skill_id: e.live.id, status: e.live.status.toLowerCase() } : null,
    window_start: e.since ? e.since.toISOString() : null,
  };
}
