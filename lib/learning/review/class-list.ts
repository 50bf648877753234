// The review page's list of trajectory classes: filtered, sorted and paged in SQL with a
// status per class, plus the status counts of the filter chips. Reads only the write-time
// class statistics, the skills that cover them and the agents' configuration; the runs table
// is touched only for classes retired by a demotion (their gates count the runs after it,
// through the class index), never grouped as a whole. The page's gate chips then come from
// the engine itself (evaluateClasses) so that they are its verdict, not a copy of it.
import type { Db } from "../../db/prisma";
import { Prisma } from "../../db/generated/client";
import { normalizeQuery } from "../capture/canonical";
import { distinctUsersThreshold } from "../agents/config";
import { classStatsRowOf, evaluateClasses, type ClassSqlRow, type ClassStatsRow, type Gate } from "../classes/class-gates";
import { agentConfigs, likeEscape, type AgentConfig } from "./agent-configs";
import { defaultDir, type ClassListInput, type ClassSort } from "./class-query";
import { CLASS_STATUSES, type ClassStatus } from "./status";

export type ReviewClassRow = ClassStatsRow & {
  agentName: string;
  status: ClassStatus;
  eligible: boolean;
  gates: Gate[];
  liveSkill: { id: string; status: string } | null;
  /** Set when the gates count only runs after the last retirement. */
  windowStart: Date | null;
};

export type StatusCounts = Record<ClassStatus, number>;

type SqlRow = ClassSqlRow & { status: ClassStatus };

const ORDER: Record<Exclude<ClassSort, "status">, Prisma.Sql> = {
  tools: Prisma.sql`tools_key COLLATE "C"`,
  agent: Prisma.sql`agent_id COLLATE "C"`,
  runs: Prisma.sql`executions`,
  success: Prisma.sql`(successes::float8 / NULLIF(executions, 0))`,
  queries: Prisma.sql`distinct_queries`,
  last_seen: Prisma.sql`last_seen`,
};

function textFilter(q: string | undefined): Prisma.Sql {
  if (!q) return Prisma.sql`TRUE`;
  const like = `%${likeEscape(q)}%`;
  const normalized = normalizeQuery(q);
  return Prisma.sql`(
    c.canonical_hash LIKE ${likeEscape(q.toLowerCase()) + "%"}
    OR array_to_string(c.tools, ' → ') ILIKE ${like}
    OR c.agent_id ILIKE ${like}
    OR c.user_scope ILIKE ${like}
    ${
      normalized
        ? Prisma.sql`OR EXISTS (
      SELECT 1 FROM trajectory_class_queries tq
      WHERE tq.agent_id = c.agent_id AND tq.user_scope = c.user_scope AND tq.canonical_hash = c.canonical_hash
        AND tq.normalized_query LIKE ${`%${likeEscape(normalized)}%`})`
        : Prisma.empty
    })`;
}

/**
 * Every class of the given agents that matches the text filter, with its status: the gates
 * are the engine's own rule (class_gate_failures) and the status class_review_status, the
 * detail panel's too (both inlined by the planner). Rows stay narrow (keys, statistics, status; the tool path only as a
 * sort key when asked): the page joins the rest back for its few rows.
 */
function classified(agents: AgentConfig[], q: string | undefined, now: Date, toolsKey = false, readyOnly = false): Prisma.Sql {
  return Prisma.sql`
    WITH cfg AS (
      SELECT * FROM unnest(
        ${agents.map((a) => a.id)}::text[], ${agents.map((a) => a.config.min_executions)}::int[],
        ${agents.map((a) => a.config.min_success_rate)}::float8[], ${agents.map((a) => a.config.min_distinct_queries)}::int[],
        ${agents.map((a) => a.config.max_days_since_last_seen)}::int[], ${agents.map((a) => distinctUsersThreshold(a.config))}::int[]
      ) AS t(agent_id, min_exec, min_rate, min_q, max_days, min_users)
    ),
    -- The live skill (highest version among candidate, shadow, active) as version * 4 + status
    -- code, so that the aggregate can hash rather than sort; and the latest retirement.
    sk AS (
      SELECT s.agent_id, s.user_scope, s.source_canonical_hash AS canonical_hash,
        max(s.version * 4 + CASE s.status WHEN 'CANDIDATE' THEN 1 WHEN 'SHADOW' THEN 2 WHEN 'ACTIVE' THEN 3 END)
          FILTER (WHERE s.status IN ('CANDIDATE', 'SHADOW', 'ACTIVE')) AS live_code,
        max(s.demoted_at) FILTER (WHERE s.status IN ('DEMOTED', 'DEPRECATED', 'REJECTED')) AS since
      FROM skills s WHERE s.agent_id IN (SELECT agent_id FROM cfg)
      GROUP BY 1, 2, 3
    ),
    cls AS (
      SELECT c.agent_id, c.user_scope, c.canonical_hash, c.executions, c.successes, c.distinct_queries, c.distinct_users, c.last_seen,
        ${toolsKey ? Prisma.sql`array_to_string(c.tools, ' ')` : Prisma.sql`NULL::text`} AS tools_key, cfg.min_exec, cfg.min_rate, cfg.min_q, cfg.max_days, cfg.min_users,
        CASE sk.live_code % 4 WHEN 1 THEN 'CANDIDATE' WHEN 2 THEN 'SHADOW' WHEN 3 THEN 'ACTIVE' END AS live_status, sk.since
      FROM trajectory_classes c
      JOIN cfg ON cfg.agent_id = c.agent_id
      LEFT JOIN sk ON sk.agent_id = c.agent_id AND sk.user_scope = c.user_scope AND sk.canonical_hash = c.canonical_hash
      WHERE ${textFilter(q)}
      ${
        // Only classes that could be ready: the gates on runs, distinct queries and last seen pass on the
        // whole class (a retirement's window has no more runs or queries, and no later run, than that).
        readyOnly
          ? Prisma.sql`AND class_gate_failures(false, c.executions, c.successes, c.distinct_queries, c.distinct_users, c.last_seen, cfg.min_exec, cfg.min_rate, cfg.min_q, cfg.min_users, cfg.max_days, ${now}::timestamptz) & 26 = 0`
          : Prisma.empty
      }
    ),
    -- The gates' statistics: the whole class, or for a class retired by a demotion or
    -- deprecation only its runs since then (a lateral aggregate through the class index on
    -- workflows, for those classes alone, and not when a live skill decides the status anyway).
    gated AS (
      SELECT cls.*, executions AS g_exec, successes AS g_succ, distinct_queries AS g_q, distinct_users AS g_users, last_seen AS g_last
      FROM cls WHERE since IS NULL OR live_status IS NOT NULL
      UNION ALL
      SELECT cls.*, w.*
      FROM cls
      CROSS JOIN LATERAL (
        SELECT count(*)::int, (count(*) FILTER (WHERE wf.outcome = 'SUCCESS'))::int,
          count(DISTINCT NULLIF(wf.normalized_query, ''))::int, (count(DISTINCT wf.user_id) FILTER (WHERE wf.outcome = 'SUCCESS'))::int, max(wf.created_at)
        FROM workflows wf
        WHERE wf.agent_id = cls.agent_id AND wf.user_scope = cls.user_scope AND wf.canonical_hash = cls.canonical_hash AND wf.created_at > cls.since
      ) w
      WHERE cls.since IS NOT NULL AND cls.live_status IS NULL
    ),
    classified AS (
      SELECT agent_id, user_scope, canonical_hash, executions, successes, distinct_queries, distinct_users, last_seen, tools_key,
        class_review_status(live_status,
          class_gate_failures(live_status IS NOT NULL, g_exec, g_succ, g_q, g_users, g_last, min_exec, min_rate, min_q, min_users, max_days, ${now}::timestamptz),
          g_exec, g_succ) AS status
      FROM gated
    )`;
}

const emptyCounts = (): StatusCounts => Object.fromEntries(CLASS_STATUSES.map((s) => [s, 0])) as StatusCounts;

/** Sums per-agent counts into one set. */
export function totalCounts(byAgent: Map<string, StatusCounts>): StatusCounts {
  const out = emptyCounts();
  for (const c of byAgent.values()) for (const s of CLASS_STATUSES) out[s] += c[s];
  return out;
}

type CountRow = { agent_id: string; status: ClassStatus; n: number };

function countsByAgent(agents: AgentConfig[], rows: CountRow[]): Map<string, StatusCounts> {
  const out = new Map<string, StatusCounts>(agents.map((a) => [a.id, emptyCounts()]));
  for (const r of rows) out.get(r.agent_id)![r.status] = r.n;
  return out;
}

/** The number of classes ready to distill, as a scalar subquery (the inbox counts in one statement). */
export function readyClassCountSql(agents: AgentConfig[], now: Date): Prisma.Sql {
  return Prisma.sql`(${classified(agents, undefined, now, false, true)} SELECT count(*)::int FROM classified WHERE status = 'ready')`;
}

/** Status counts per agent of the classes matching the text filter (the chips, the roll-up). */
export async function classStatusCountsByAgent(db: Db, agents: AgentConfig[], q: string | undefined, now: Date): Promise<Map<string, StatusCounts>> {
  if (agents.length === 0) return new Map();
  const rows = await db.$queryRaw<CountRow[]>`
    ${classified(agents, q, now)}
    SELECT agent_id, status, count(*)::int AS n FROM classified GROUP BY agent_id, status`;
  return countsByAgent(agents, rows);
}

export type ReviewClassList = {
  rows: ReviewClassRow[];
  total: number;
  /** Under the text filter, all statuses (the chips). */
  counts: StatusCounts;
  countsByAgent: Map<string, StatusCounts>;
  agents: AgentConfig[];
};

/**
 * One page of classes and the status counts per agent, from one statement: the classification
 * is computed once (a CTE read twice is materialized) for both.
 */
export async function listReviewClasses(db: Db, query: ClassListInput, now: Date = new Date()): Promise<ReviewClassList> {
  const agents = await agentConfigs(db, query.agent);
  if (agents.length === 0) return { rows: [], total: 0, counts: emptyCounts(), countsByAgent: new Map(), agents };
  const dir = query.dir ?? defaultDir(query.sort);
  const d = Prisma.raw(dir === "asc" ? "ASC" : "DESC");
  const order =
    query.sort === "status"
      ? Prisma.sql`array_position(ARRAY['ready','failing','evidence','in_review','promoted'], status) ${d}, executions DESC, last_seen DESC`
      : Prisma.sql`${ORDER[query.sort]} ${d} NULLS LAST`;
  const [result] = await db.$queryRaw<{ counts: CountRow[]; rows: (Omit<SqlRow, "first_seen" | "last_seen"> & { first_seen: string; last_seen: string; rn: number })[] }[]>`
    ${classified(agents, query.q, now, query.sort === "tools")},
    ranked AS (
      SELECT agent_id, user_scope, canonical_hash, executions, successes, distinct_queries, distinct_users, last_seen, status,
        row_number() OVER (ORDER BY ${order}, agent_id COLLATE "C", canonical_hash COLLATE "C", user_scope COLLATE "C") AS rn
      FROM classified
      ${query.status ? Prisma.sql`WHERE status = ${query.status}` : Prisma.empty}
      ORDER BY rn
      LIMIT ${query.page_size} OFFSET ${(query.page - 1) * query.page_size}
    ),
    page AS (
      SELECT r.*, c.tools, c.first_seen FROM ranked r
      JOIN trajectory_classes c ON c.agent_id = r.agent_id AND c.user_scope = r.user_scope AND c.canonical_hash = r.canonical_hash
    )
    SELECT
      (SELECT COALESCE(json_agg(c), '[]') FROM (SELECT agent_id, status, count(*)::int AS n FROM classified GROUP BY agent_id, status) c) AS counts,
      (SELECT COALESCE(json_agg(p ORDER BY p.rn), '[]') FROM page p) AS rows`;
  const byAgent = countsByAgent(agents, result.counts);
  const counts = totalCounts(byAgent);
  const total = query.status ? counts[query.status] : CLASS_STATUSES.reduce((a, s) => a + counts[s], 0);
  // Times arrive as ISO text inside the JSON.
  const rows: SqlRow[] = result.rows.map(({ rn: _rn, ...r }) => ({ ...r, first_seen: new Date(r.first_seen), last_seen: new Date(r.last_seen) }));
  return { rows: await withVerdicts(db, agents, rows, now), total, counts, countsByAgent: byAgent, agents };
}

/** The engine's verdict for each row of the page, evaluated per agent (in parallel) with its own config. */
async function withVerdicts(db: Db, agents: AgentConfig[], rows: SqlRow[], now: Date): Promise<ReviewClassRow[]> {
  const byId = new Map(agents.map((a) => [a.id, a]));
  const out: ReviewClassRow[] = new Array(rows.length);
  const groups = new Map<string, number[]>();
  rows.forEach((r, i) => groups.set(r.agent_id, [...(groups.get(r.agent_id) ?? []), i]));
  await Promise.all(
    [...groups].map(async ([agentId, idx]) => {
      const agent = byId.get(agentId)!;
      const evaluated = await evaluateClasses(db, agent.config, idx.map((i) => classStatsRowOf(rows[i])), now);
      evaluated.forEach((e, j) => {
        out[idx[j]] = {
          ...e.row,
          agentName: agent.name,
          status: rows[idx[j]].status,
          eligible: e.verdict.eligible,
          gates: e.verdict.gates,
          liveSkill: e.live ? { id: e.live.id, status: e.live.status.toLowerCase() } : null,
          windowStart: e.since,
        };
      });
    }),
  );
  return out;
}
