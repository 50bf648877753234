// The accounts the agents have sent runs or conversations for (their user_id), with their
// activity and persona: one statement that aggregates both sources, joins the persona and its
// pending suggestion, filters, counts and pages. Sorted by last seen, newest first.
import type { Db } from "../db/prisma";
import { Prisma } from "../db/generated/client";
import { likeEscape } from "../learning/review/agent-configs";

export type AccountRow = {
  userId: string;
  /** The agent of the account's newest activity (its traces and persona open there). */
  agentId: string;
  runs: number;
  threads: number;
  lastSeen: Date;
  persona: { version: number; status: string; paused: boolean } | null;
  pending: boolean;
};

export type AccountQuery = { q?: string; agent?: string; pending?: boolean; page: number; pageSize: number };

export async function listAccounts(db: Db, o: AccountQuery): Promise<{ rows: AccountRow[]; total: number }> {
  // One agent's, or every agent's but those being deleted (hidden at once, as the deletion starts).
  const agentRuns = o.agent ? Prisma.sql`AND agent_id = ${o.agent}` : Prisma.sql`AND agent_id NOT IN (SELECT id FROM agents WHERE deleting_at IS NOT NULL)`;
  const like = o.q ? `%${likeEscape(o.q)}%` : null;
  const rows = await db.$queryRaw<
    { user_id: string; agent_id: string; runs: number; threads: number; last_seen: Date; version: number | null; review_state: string | null; paused: boolean | null; pending: boolean; total: number }[]
  >`
    WITH acts AS (
      SELECT user_id, agent_id, thread_id, created_at AS at, 1 AS run FROM workflows WHERE user_id IS NOT NULL ${agentRuns}
      UNION ALL
      SELECT user_id, agent_id, thread_id, timestamp AS at, 0 AS run FROM conversation_messages WHERE TRUE ${agentRuns}
    ),
    acc AS (
      SELECT user_id, sum(run)::int AS runs, (count(DISTINCT (agent_id, thread_id)) FILTER (WHERE thread_id IS NOT NULL))::int AS threads, max(at) AS last_seen,
        (array_agg(agent_id ORDER BY at DESC))[1] AS agent_id
      FROM acts ${like ? Prisma.sql`WHERE user_id ILIKE ${like}` : Prisma.empty}
      GROUP BY user_id
    ),
    joined AS (
      SELECT acc.*, p.version, p.review_state::text AS review_state, p.paused,
        EXISTS (SELECT 1 FROM persona_proposals pp WHERE pp.user_id = acc.user_id AND pp.status = 'PENDING') AS pending
      FROM acc LEFT JOIN account_personas p ON p.user_id = acc.user_id
    )
    SELECT *, (count(*) OVER ())::int AS total FROM joined
    ${o.pending ? Prisma.sql`WHERE pending` : Prisma.empty}
    ORDER BY last_seen DESC, user_id
    LIMIT ${o.pageSize} OFFSET ${(o.page - 1) * o.pageSize}`;
  return {
    total: rows[0]?.total ?? (o.page > 1 ? await countAccounts(db, o) : 0),
    rows: rows.map((r) => ({
      userId: r.user_id,
      agentId: r.agent_id,
      runs: r.runs,
      threads: r.threads,
      lastSeen: r.last_seen,
      persona: r.version !== null ? { version: r.version, status: (r.review_state ?? "not_reviewed").toLowerCase(), paused: !!r.paused } : null,
      pending: r.pending,
    })),
  };
}

/** The total when the page is past the end (the page's own rows carry it otherwise). */
async function countAccounts(db: Db, o: AccountQuery): Promise<number> {
  return (await listAccounts(db, { ...o, page: 1, pageSize: 1 })).total;
}
