// The skills review list: filtered by status (or "ready to review"), agent, authority and
// text, sorted and paged in SQL, with the counts of the status chips. Narrow columns only:
// SKILL.md bodies and vectors load on the detail view.
import type { Db } from "../../db/prisma";
import { Prisma } from "../../db/generated/client";
import { shadowReadiness, shadowStatsOf, type Readiness } from "../shadow/readiness";
import { agentConfigs, likeEscape, type AgentConfig } from "./agent-configs";
import { defaultSkillDir, SKILL_FILTERS, type SkillFilter, type SkillListInput, type SkillQuery, type SkillSort, type SkillStatusName } from "./skill-query";

export type ReviewSkillRow = {
  id: string;
  agentId: string;
  agentName: string;
  userScope: string;
  name: string;
  version: number;
  status: SkillStatusName;
  injectionRole: "user" | "developer";
  tools: string[];
  activations: number;
  successes: number;
  failures: number;
  deviations: number;
  sourceCanonicalHash: string;
  templateDistilled: boolean;
  /** Shadow skills only: the advisory readiness with the agent's thresholds. */
  readiness: Readiness | null;
  shadowEvaluationEnabled: boolean;
  createdAt: Date;
  promotedAt: Date | null;
};

export type SkillCounts = Record<SkillFilter, number>;

type SqlRow = {
  id: string; agent_id: string; user_scope: string; name: string; version: number; status: string; role: string; tools: string[];
  activations: number; successes: number; failures: number; deviations: number; source_canonical_hash: string;
  template_distilled: boolean; shadow_stats: unknown; created_at: Date; promoted_at: Date | null;
};

type ShadowKey = "observations" | "trajectory_matches" | "matched_successes" | "matched_failures";
/** A number of the shadow statistics as readiness.ts reads it (anything else counts as 0). Keys are constants. */
const num = (key: ShadowKey) => Prisma.raw(`(CASE WHEN jsonb_typeof(sk.shadow_stats -> '${key}') = 'number' THEN (sk.shadow_stats ->> '${key}')::float8 ELSE 0 END)`);

const ORDER: Record<Exclude<SkillSort, "lifecycle">, Prisma.Sql> = {
  name: Prisma.sql`lower(name)`,
  activations: Prisma.sql`activations`,
  success: Prisma.sql`(successes::float8 / NULLIF(successes + failures, 0))`,
  deviations: Prisma.sql`deviations`,
  listed: Prisma.sql`COALESCE(promoted_at, created_at)`,
};

/** Skills of the agents matching authority and text, each with its readiness flag (as readiness.ts computes it). */
function filtered(agents: AgentConfig[], q: Partial<Pick<SkillQuery, "authority" | "q">>): Prisma.Sql {
  const like = q.q ? `%${likeEscape(q.q)}%` : null;
  const obs = num("observations");
  const matched = Prisma.sql`(${num("matched_successes")} + ${num("matched_failures")})`;
  return Prisma.sql`
    WITH cfg AS (
      SELECT * FROM unnest(
        ${agents.map((a) => a.id)}::text[], ${agents.map((a) => a.config.shadow_readiness_min_observations)}::int[],
        ${agents.map((a) => a.config.shadow_readiness_min_trajectory_match_rate)}::float8[],
        ${agents.map((a) => a.config.shadow_readiness_min_matched_success_rate)}::float8[]
      ) AS t(agent_id, min_obs, min_match, min_succ)
    ),
    filtered AS (
      SELECT sk.id, sk.agent_id, sk.user_scope, sk.name, sk.version, sk.status::text AS status, sk.injection_role::text AS role,
        sk.tools, sk.activations, sk.successes, sk.failures, sk.deviations, sk.source_canonical_hash, sk.template_distilled,
        sk.shadow_stats, sk.created_at, sk.promoted_at,
        (sk.status = 'SHADOW' AND ${obs} >= cfg.min_obs
          AND (CASE WHEN ${obs} > 0 THEN ${num("trajectory_matches")} / ${obs} ELSE 0 END) >= cfg.min_match
          AND (CASE WHEN ${matched} > 0 THEN ${num("matched_successes")} / ${matched} ELSE 0 END) >= cfg.min_succ) AS ready
      FROM skills sk JOIN cfg ON cfg.agent_id = sk.agent_id
      WHERE ${q.authority ? Prisma.sql`sk.injection_role = ${q.authority.toUpperCase()}::"InjectionRole"` : Prisma.sql`TRUE`}
        ${
          like
            ? Prisma.sql`AND (sk.name ILIKE ${like} OR sk.description ILIKE ${like} OR sk.id = ${q.q} OR sk.agent_id ILIKE ${like}
                OR sk.source_canonical_hash LIKE ${likeEscape(q.q!.toLowerCase()) + "%"} OR array_to_string(sk.tools, ' ') ILIKE ${like})`
            : Prisma.empty
        }
    )`;
}

function statusWhere(status: SkillFilter | undefined): Prisma.Sql {
  if (!status) return Prisma.empty;
  if (status === "ready") return Prisma.sql`WHERE ready`;
  return Prisma.sql`WHERE status = ${status.toUpperCase()}`;
}

export type SkillTotals = { counts: SkillCounts; activations: number; successes: number; failures: number; deviations: number; newest: Date | null };

/** [ready, shadow, candidate] skill counts as a scalar subquery (the inbox counts in one statement). */
export function skillInboxCountsSql(agents: AgentConfig[]): Prisma.Sql {
  return Prisma.sql`(${filtered(agents, {})}
    SELECT ARRAY[count(*) FILTER (WHERE ready), count(*) FILTER (WHERE status = 'SHADOW'), count(*) FILTER (WHERE status = 'CANDIDATE')]::int[] FROM filtered)`;
}

/** Status counts (and "ready"), and activity sums, of the skills matching authority and text. */
export async function skillTotals(db: Db, agents: AgentConfig[], q: Partial<Pick<SkillQuery, "authority" | "q">>): Promise<SkillTotals> {
  const totals: SkillTotals = { counts: Object.fromEntries(SKILL_FILTERS.map((s) => [s, 0])) as SkillCounts, activations: 0, successes: 0, failures: 0, deviations: 0, newest: null };
  if (agents.length === 0) return totals;
  const rows = await db.$queryRaw<{ status: string; n: number; ready: number; activations: number; successes: number; failures: number; deviations: number; newest: Date | null }[]>`
    ${filtered(agents, q)}
    SELECT status, count(*)::int AS n, (count(*) FILTER (WHERE ready))::int AS ready,
      sum(activations)::float8 AS activations, sum(successes)::float8 AS successes, sum(failures)::float8 AS failures,
      sum(deviations)::float8 AS deviations, max(COALESCE(promoted_at, created_at)) AS newest
    FROM filtered GROUP BY status`;
  for (const r of rows) {
    totals.counts[r.status.toLowerCase() as SkillStatusName] = r.n;
    totals.counts.ready += r.ready;
    totals.activations += r.activations;
    totals.successes += r.successes;
    totals.failures += r.failures;
    totals.deviations += r.deviations;
    if (r.newest && (!totals.newest || r.newest > totals.newest)) totals.newest = r.newest;
  }
  return totals;
}

export async function listReviewSkills(db: Db, query: SkillListInput) {
  const agents = await agentConfigs(db, query.agent);
  const totals = await skillTotals(db, agents, query);
  const counts = totals.counts;
  const total = query.status ? counts[query.status] : SKILL_FILTERS.filter((s) => s !== "ready").reduce((a, s) => a + counts[s], 0);
  if (total === 0) return { rows: [] as ReviewSkillRow[], total, totals, agents };

  const d = Prisma.raw((query.dir ?? defaultSkillDir(query.sort)) === "asc" ? "ASC" : "DESC");
  const order =
    query.sort === "lifecycle"
      ? Prisma.sql`array_position(ARRAY['ACTIVE','SHADOW','CANDIDATE','DEPRECATED','DEMOTED','REJECTED'], status) ${d}, lower(name) ASC, version DESC`
      : Prisma.sql`${ORDER[query.sort]} ${d} NULLS LAST, version DESC`;
  const rows = await db.$queryRaw<SqlRow[]>`
    ${filtered(agents, query)} SELECT * FROM filtered ${statusWhere(query.status)}
    ORDER BY ${order}, id ASC
    LIMIT ${query.page_size} OFFSET ${(query.page - 1) * query.page_size}`;
  const byId = new Map(agents.map((a) => [a.id, a]));
  return { rows: rows.map((r) => toRow(r, byId.get(r.agent_id)!)), total, totals, agents };
}

function toRow(r: SqlRow, agent: AgentConfig): ReviewSkillRow {
  const status = r.status.toLowerCase() as SkillStatusName;
  return {
    id: r.id,
    agentId: r.agent_id,
    agentName: agent.name,
    userScope: r.user_scope,
    name: r.name,
    version: r.version,
    status,
    injectionRole: r.role === "DEVELOPER" ? "developer" : "user",
    tools: r.tools,
    activations: r.activations,
    successes: r.successes,
    failures: r.failures,
    deviations: r.deviations,
    sourceCanonicalHash: r.source_canonical_hash,
    templateDistilled: r.template_distilled,
    readiness: status === "shadow" ? shadowReadiness(shadowStatsOf(r.shadow_stats), agent.config) : null,
    shadowEvaluationEnabled: agent.config.shadow_evaluation_enabled,
    createdAt: r.created_at,
    promotedAt: r.promoted_at,
  };
}
