// The engine's verdict on trajectory classes: gates, eligibility, ranking score and the live
// skill. Reads the write-time class statistics; never scans the workflows table for the class
// list. After a demotion or deprecation, every gate, the score (and, in the cycle, the
// baseline and the samples) use only the runs created after it, through the workflows index
// (agent_id, user_scope, canonical_hash, created_at) for just those classes. Which gates pass
// comes from class_gate_failures in the same statement: the rule the review list uses too.
// That statement runs on the plain pg pool (figures at gateRows); the classes API computes the
// same gate rows inside its page statement (gateStatsSql).
import { pgPool, type Db, type Tx } from "../../db/prisma";
import { distinctUsersThreshold, type LearningConfig } from "../agents/config";
import { evaluateGates, rankScore, type GateResult, type GateStats, type GateVerdict } from "./gates";
import { LIVE_SKILL_STATUSES } from "../skills/lifecycle";

export type ClassStatsRow = {
  agentId: string;
  userScope: string;
  canonicalHash: string;
  tools: string[];
  executions: number;
  successes: number;
  distinctQueries: number;
  distinctUsers: number;
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
  distinct_users: number;
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
    distinctUsers: r.distinct_users,
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
  status: "CANDIDATE" | "SHADOW" | "ACTIVE" | "DEPRECATED" | "DEMOTED" | "REJECTED";
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

/**
 * The configuration keys the gates read, with their SQL types: the classes list reads them from
 * the agent's stored config (absent keys taking resolveLearningConfig's defaults), and the
 * incremental cycle's marks record them (./class-checks.ts).
 */
export const GATE_THRESHOLDS = [
  ["min_executions", "int"],
  ["min_success_rate", "float8"],
  ["min_distinct_queries", "int"],
  ["max_days_since_last_seen", "int"],
  ["learning_scope", "text"],
  ["min_distinct_users", "int"],
] as const;

/**
 * class_gate_failures' threshold arguments after the statistics, in its order, from SQL
 * expressions of the keys above: min_executions, min_success_rate, min_distinct_queries, the
 * distinct-accounts threshold (distinctUsersThreshold: 0 under the per-account scope),
 * max_days_since_last_seen.
 */
export const gateThresholdArgs = (key: (name: (typeof GATE_THRESHOLDS)[number][0]) => string) =>
  [
    key("min_executions"),
    key("min_success_rate"),
    key("min_distinct_queries"),
    `CASE WHEN ${key("learning_scope")} = 'agent' THEN ${key("min_distinct_users")} ELSE 0 END`,
    key("max_days_since_last_seen"),
  ].join(", ");

const LIVE = new Set<string>(LIVE_SKILL_STATUSES);
const keyOf = (scope: string, hash: string) => `${scope}\u0000${hash}`;

/** A skill of a class as the class queries select it (snake case). */
export type ClassSkillRow = { id: string; user_scope: string; source_canonical_hash: string; status: SkillRef["status"]; version: number; demoted_at: Date | null; demotion_reason: string | null };
/** What the gates counted for one class, and which of them failed (class_gate_failures). */
export type GateRow = { executions: number; successes: number; distinct_queries: number; distinct_users: number; first_seen: Date | null; last_seen: Date | null; failures: number };

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

/**
 * The statistics the gates count for class row `c` (with user_scope, canonical_hash and the
 * stored statistics): those columns, or when `since` (an SQL expression) is not null its runs
 * created after then, through the workflows class index. The body of a LATERAL subquery; the
 * engine's statement below and the classes API page (lib/learning/classes/trajectory-classes.ts) both use it.
 */
export const gateStatsSql = (c: string, since: string, agentId: string) => `
  SELECT ${c}.executions, ${c}.successes, ${c}.distinct_queries, ${c}.distinct_users, ${c}.first_seen, ${c}.last_seen
  WHERE ${since} IS NULL
  UNION ALL
  SELECT count(*)::int, (count(*) FILTER (WHERE w.outcome = 'SUCCESS'))::int, count(DISTINCT NULLIF(w.normalized_query, ''))::int,
    (count(DISTINCT w.user_id) FILTER (WHERE w.outcome = 'SUCCESS'))::int, min(w.created_at), max(w.created_at)
  FROM workflows w
  WHERE w.agent_id = ${agentId} AND w.user_scope = ${c}.user_scope AND w.canonical_hash = ${c}.canonical_hash AND w.created_at > ${since}
  HAVING ${since} IS NOT NULL`;

/**
 * For each class, in order: its failed gates (class_gate_failures) over the statistics they
 * count, and those statistics: the stored ones the caller read, or for a class retired at
 * `since` its runs after then. One statement for all the classes, on the plain pg pool: through
 * Prisma it would cost a classes page about 1.8× the client CPU (docs/benchmarks.md#pg-path).
 */
async function gateRows(
  db: Db,
  agentId: string,
  config: LearningConfig,
  classes: { row: ClassStatsRow; covered: boolean; since: Date | null }[],
  now: Date,
): Promise<GateRow[]> {
  const column = <T>(f: (c: (typeof classes)[number]) => T) => classes.map(f);
  const { rows } = await pgPool(db).query<GateRow>(
    `SELECT s.executions, s.successes, s.distinct_queries, s.distinct_users, s.first_seen, s.last_seen,
       class_gate_failures(k.covered, s.executions, s.successes, s.distinct_queries, s.distinct_users, s.last_seen,
         $1::int, $2::float8, $3::int, $16::int, $4::int, $5::timestamptz) AS failures
     FROM unnest($7::text[], $8::text[], $9::timestamptz[], $10::boolean[], $11::int[], $12::int[], $13::int[], $14::timestamptz[], $15::timestamptz[], $17::int[])
       WITH ORDINALITY AS k(user_scope, canonical_hash, since, covered, executions, successes, distinct_queries, first_seen, last_seen, distinct_users, i)
     CROSS JOIN LATERAL (${gateStatsSql("k", "k.since", "$6")}) s
     ORDER BY k.i`,
    [
      config.min_executions,
      config.min_success_rate,
      config.min_distinct_queries,
      config.max_days_since_last_seen,
      now.toISOString(),
      agentId,
      column((c) => c.row.userScope),
      column((c) => c.row.canonicalHash),
      column((c) => c.since?.toISOString() ?? null),
      column((c) => c.covered),
      column((c) => c.row.executions),
      column((c) => c.row.successes),
      column((c) => c.row.distinctQueries),
      column((c) => c.row.firstSeen.toISOString()),
      column((c) => c.row.lastSeen.toISOString()),
      distinctUsersThreshold(config),
      column((c) => c.row.distinctUsers),
    ],
  );
  return rows;
}

const toRef = (s: ClassSkillRow): SkillRef => ({ id: s.id, status: s.status, version: s.version, demotedAt: s.demoted_at, demotionReason: s.demotion_reason });

type ClassSkills = ReturnType<typeof classSkills>;

/** A class's skills as the gates see them: the live one, the latest retirement, the highest version. */
export function classSkills(list: ClassSkillRow[]) {
  const live = list.filter((s) => LIVE.has(s.status)).sort((a, b) => b.version - a.version)[0] ?? null;
  const retired =
    list
      .filter((s) => !LIVE.has(s.status) && s.demoted_at)
      .sort((a, b) => b.demoted_at!.getTime() - a.demoted_at!.getTime() || b.version - a.version)[0] ?? null;
  const maxVersion = list.reduce((m, s) => Math.max(m, s.version), 0);
  return { live, retired, maxVersion };
}

/**
 * One class's evaluation from its skills and its gate row: class_gate_failures over the
 * statistics the gates counted (the whole class, or the window after its latest retirement).
 */
export function classEvaluationOf(config: LearningConfig, row: ClassStatsRow, { live, retired, maxVersion }: ClassSkills, g: GateRow, now: Date): ClassEvaluation {
  const since = retired?.demoted_at ?? null;
  const stats: GateStats = {
    executions: g.executions,
    successes: g.successes,
    distinctQueries: g.distinct_queries,
    distinctUsers: g.distinct_users,
    firstSeen: g.first_seen,
    lastSeen: g.last_seen,
  };
  const verdict = evaluateGates(stats, config, { failures: g.failures, since, now });
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
}

/** Rows must belong to one agent (the one whose config is given). */
export async function evaluateClasses(db: Db, config: LearningConfig, rows: ClassStatsRow[], now: Date): Promise<ClassEvaluation[]> {
  if (rows.length === 0) return [];
  const found = await skillsOfClasses(db, rows[0].agentId, rows);
  const skills = rows.map((row) => classSkills(found.get(keyOf(row.userScope, row.canonicalHash)) ?? []));
  const gated = await gateRows(
    db,
    rows[0].agentId,
    config,
    rows.map((row, i) => ({ row, covered: skills[i].live !== null, since: skills[i].retired?.demoted_at ?? null })),
    now,
  );
  return rows.map((row, i) => classEvaluationOf(config, row, skills[i], gated[i], now));
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
