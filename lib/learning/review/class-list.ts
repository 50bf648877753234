// The review page's list of trajectory classes: filtered, sorted and paged in SQL with a
// status per class, plus the status counts of the filter chips. Reads only the write-time
// class statistics, the skills that cover them and the agents' configuration; the runs table
// is touched only for classes retired by a demotion (their gates count the runs after it,
// through the class index), never grouped as a whole. The page's gate chips then come from
// the engine itself (evaluateClasses) so that they are its verdict, not a copy of it.
import type { Db } from "../../db/prisma";
import { Prisma } from "../../db/generated/client";
import { normalizeQuery } from "../canonical";
import { evaluateClasses, type ClassStatsRow, type Gate } from "../class-gates";
import { agentConfigs, likeEscape, type AgentConfig } from "./agent-configs";
import { defaultDir, type ClassListInput, type ClassSort } from "./class-query";
import { CLASS_STATUSES, FAILING_RATE, classStatus, type ClassStatus } from "./status";

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

type SqlRow = {
  agent_id: string;
  user_scope: string;
  canonical_hash: string;
  tools: string[];
  executions: number;
  successes: number;
  distinct_queries: number;
  first_seen: Date;
  last_seen: Date;
  status: ClassStatus;
};

const ORDER: Record<Exclude<ClassSort, "status">, Prisma.Sql> = {
  tools: Prisma.sql`array_to_string(tools, ' ')`,
  agent: Prisma.sql`agent_id`,
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
 * Every class of the given agents that matches the text filter, with its status: the same
 * rules as the engine's gates (lib/learning/gates.ts) and classStatus(), in SQL.
 */
function classified(agents: AgentConfig[], q: string | undefined, now: Date): Prisma.Sql {
  return Prisma.sql`
    WITH cfg AS (
      SELECT * FROM unnest(
        ${agents.map((a) => a.id)}::text[], ${agents.map((a) => a.config.min_executions)}::int[],
        ${agents.map((a) => a.config.min_success_rate)}::float8[], ${agents.map((a) => a.config.min_distinct_queries)}::int[],
        ${agents.map((a) => a.config.max_days_since_last_seen)}::int[]
      ) AS t(agent_id, min_exec, min_rate, min_q, max_days)
    ),
    sk AS (
      SELECT s.agent_id, s.user_scope, s.source_canonical_hash AS canonical_hash,
        (array_agg(s.status::text ORDER BY s.version DESC) FILTER (WHERE s.status IN ('CANDIDATE', 'SHADOW', 'ACTIVE')))[1] AS live_status,
        max(s.demoted_at) FILTER (WHERE s.status IN ('DEMOTED', 'DEPRECATED')) AS since
      FROM skills s WHERE s.agent_id IN (SELECT agent_id FROM cfg)
      GROUP BY 1, 2, 3
    ),
    cls AS (
      SELECT c.agent_id, c.user_scope, c.canonical_hash, c.tools, c.executions, c.successes, c.distinct_queries,
        c.first_seen, c.last_seen, cfg.min_exec, cfg.min_rate, cfg.min_q, cfg.max_days, sk.live_status, sk.since
      FROM trajectory_classes c
      JOIN cfg ON cfg.agent_id = c.agent_id
      LEFT JOIN sk ON sk.agent_id = c.agent_id AND sk.user_scope = c.user_scope AND sk.canonical_hash = c.canonical_hash
      WHERE ${textFilter(q)}
    ),
    gated AS (
      SELECT cls.*,
        CASE WHEN cls.since IS NULL THEN cls.executions ELSE w.executions END AS g_exec,
        CASE WHEN cls.since IS NULL THEN cls.successes ELSE w.successes END AS g_succ,
        CASE WHEN cls.since IS NULL THEN cls.distinct_queries ELSE w.distinct_queries END AS g_q,
        CASE WHEN cls.since IS NULL THEN cls.last_seen ELSE w.last_seen END AS g_last
      FROM cls
      LEFT JOIN LATERAL (
        SELECT count(*)::int AS executions, (count(*) FILTER (WHERE wf.outcome = 'SUCCESS'))::int AS successes,
          count(DISTINCT NULLIF(wf.normalized_query, ''))::int AS distinct_queries, max(wf.created_at) AS last_seen
        FROM workflows wf
        WHERE cls.since IS NOT NULL AND wf.agent_id = cls.agent_id AND wf.user_scope = cls.user_scope
          AND wf.canonical_hash = cls.canonical_hash AND wf.created_at > cls.since
      ) w ON TRUE
    ),
    classified AS (
      SELECT agent_id, user_scope, canonical_hash, tools, executions, successes, distinct_queries, first_seen, last_seen,
        CASE
          WHEN live_status = 'ACTIVE' THEN 'promoted'
          WHEN live_status IS NOT NULL THEN 'in_review'
          WHEN g_exec >= min_exec AND g_exec > 0 AND g_succ::float8 / g_exec >= min_rate AND g_q >= min_q AND g_last IS NOT NULL
            AND floor(GREATEST(0, extract(epoch FROM (${now}::timestamptz - g_last))) / 86400) <= max_days THEN 'ready'
          WHEN g_exec > 0 AND g_succ::float8 / g_exec < ${FAILING_RATE} THEN 'failing'
          ELSE 'evidence'
        END AS status
      FROM gated
    )`;
}

export async function classStatusCounts(db: Db, agents: AgentConfig[], q: string | undefined, now: Date): Promise<StatusCounts> {
  const counts = Object.fromEntries(CLASS_STATUSES.map((s) => [s, 0])) as StatusCounts;
  if (agents.length === 0) return counts;
  const rows = await db.$queryRaw<{ status: ClassStatus; n: number }[]>`
    ${classified(agents, q, now)}
    SELECT status, count(*)::int AS n FROM classified GROUP BY status`;
  for (const r of rows) counts[r.status] = r.n;
  return counts;
}

/** Per agent and status: the agents roll-up of the all-agents view. */
export async function classStatusCountsByAgent(db: Db, agents: AgentConfig[], now: Date): Promise<Map<string, StatusCounts>> {
  const out = new Map<string, StatusCounts>(agents.map((a) => [a.id, Object.fromEntries(CLASS_STATUSES.map((s) => [s, 0])) as StatusCounts]));
  if (agents.length === 0) return out;
  const rows = await db.$queryRaw<{ agent_id: string; status: ClassStatus; n: number }[]>`
    ${classified(agents, undefined, now)}
    SELECT agent_id, status, count(*)::int AS n FROM classified GROUP BY agent_id, status`;
  for (const r of rows) out.get(r.agent_id)![r.status] = r.n;
  return out;
}

export async function listReviewClasses(
  db: Db,
  query: ClassListInput,
  now: Date = new Date(),
): Promise<{ rows: ReviewClassRow[]; total: number; counts: StatusCounts; agents: AgentConfig[] }> {
  const agents = await agentConfigs(db, query.agent);
  const counts = await classStatusCounts(db, agents, query.q, now);
  const total = query.status ? counts[query.status] : Object.values(counts).reduce((a, b) => a + b, 0);
  if (agents.length === 0 || total === 0) return { rows: [], total, counts, agents };

  const dir = query.dir ?? defaultDir(query.sort);
  const d = Prisma.raw(dir === "asc" ? "ASC" : "DESC");
  const order =
    query.sort === "status"
      ? Prisma.sql`array_position(ARRAY['ready','failing','evidence','in_review','promoted'], status) ${d}, executions DESC, last_seen DESC`
      : Prisma.sql`${ORDER[query.sort]} ${d} NULLS LAST`;
  const rows = await db.$queryRaw<SqlRow[]>`
    ${classified(agents, query.q, now)}
    SELECT * FROM classified
    ${query.status ? Prisma.sql`WHERE status = ${query.status}` : Prisma.empty}
    ORDER BY ${order}, agent_id ASC, canonical_hash ASC, user_scope ASC
    LIMIT ${query.page_size} OFFSET ${(query.page - 1) * query.page_size}`;
  return { rows: await withVerdicts(db, agents, rows, now), total, counts, agents };
}

/** The engine's verdict for each row of the page, evaluated per agent with its own config. */
async function withVerdicts(db: Db, agents: AgentConfig[], rows: SqlRow[], now: Date): Promise<ReviewClassRow[]> {
  const byId = new Map(agents.map((a) => [a.id, a]));
  const out: ReviewClassRow[] = new Array(rows.length);
  const groups = new Map<string, number[]>();
  rows.forEach((r, i) => groups.set(r.agent_id, [...(groups.get(r.agent_id) ?? []), i]));
  for (const [agentId, idx] of groups) {
    const agent = byId.get(agentId)!;
    const stats: ClassStatsRow[] = idx.map((i) => toStatsRow(rows[i]));
    const evaluated = await evaluateClasses(db, agent.config, stats, now);
    evaluated.forEach((e, j) => {
      out[idx[j]] = {
        ...e.row,
        agentName: agent.name,
        status: classStatus({ liveStatus: e.live?.status ?? null, eligible: e.verdict.eligible, executions: e.stats.executions, successes: e.stats.successes }),
        eligible: e.verdict.eligible,
        gates: e.verdict.gates,
        liveSkill: e.live ? { id: e.live.id, status: e.live.status.toLowerCase() } : null,
        windowStart: e.since,
      };
    });
  }
  return out;
}

function toStatsRow(r: SqlRow): ClassStatsRow {
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
