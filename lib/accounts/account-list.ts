// The accounts the agents have sent runs or conversations for (their user_id), with their
// activity and persona, newest activity first: a keyset page of the activity summaries kept at
// write time (account_summaries, or account_agent_summaries for one agent), joined to the
// persona and its pending suggestion, with a capped count.
import type { Db } from "../db/prisma";
import { Prisma } from "../db/generated/client";
import { likeEscape } from "../learning/review/agent-configs";
import { cappedCount, keysetPage, type Cursor, type KeysetPage } from "../console/keyset";

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

export type AccountQuery = { q?: string; agent?: string; pending?: boolean; after: Cursor | null; pageSize: number };

/** The cursor keys of an account row: its id (after its last-seen time). */
export const ACCOUNT_CURSOR_KEYS = 1;

export async function listAccounts(db: Db, o: AccountQuery): Promise<KeysetPage<AccountRow>> {
  const source = o.agent
    ? Prisma.sql`SELECT user_id, agent_id, runs, threads, last_seen FROM account_agent_summaries WHERE agent_id = ${o.agent}`
    : // An agent being deleted is hidden at once (its summaries go as the deletion starts).
      Prisma.sql`SELECT user_id, agent_id, runs, threads, last_seen FROM account_summaries WHERE agent_id NOT IN (SELECT id FROM agents WHERE deleting_at IS NOT NULL)`;
  const pending = (user: Prisma.Sql) => Prisma.sql`EXISTS (SELECT 1 FROM persona_proposals pp WHERE pp.user_id = ${user} AND pp.status = 'PENDING')`;
  const filters = [
    o.q ? Prisma.sql`s.user_id ILIKE ${`%${likeEscape(o.q)}%`}` : null,
    o.pending ? pending(Prisma.sql`s.user_id`) : null,
  ].filter((f): f is Prisma.Sql => f !== null);
  const where = (extra: Prisma.Sql[]) => {
    const all = [...filters, ...extra];
    return all.length ? Prisma.sql`WHERE ${Prisma.join(all, " AND ")}` : Prisma.empty;
  };
  const after = o.after ? [Prisma.sql`(s.last_seen, s.user_id) < (${o.after.at}, ${o.after.keys[0]})`] : [];
  const [rows, count] = await Promise.all([
    db.$queryRaw<
      { user_id: string; agent_id: string; runs: number; threads: number; last_seen: Date; version: number | null; review_state: string | null; paused: boolean | null; pending: boolean }[]
    >`
      SELECT s.*, p.version, p.review_state::text AS review_state, p.paused, ${pending(Prisma.sql`s.user_id`)} AS pending
      FROM (${source}) s LEFT JOIN account_personas p ON p.user_id = s.user_id
      ${where(after)}
      ORDER BY s.last_seen DESC, s.user_id DESC
      LIMIT ${o.pageSize + 1}`,
    cappedCount(db, Prisma.sql`SELECT 1 FROM (${source}) s ${where([])}`),
  ]);
  const view = rows.map((r): AccountRow => ({
    userId: r.user_id,
    agentId: r.agent_id,
    runs: r.runs,
    threads: r.threads,
    lastSeen: r.last_seen,
    persona: r.version !== null ? { version: r.version, status: (r.review_state ?? "not_reviewed").toLowerCase(), paused: !!r.paused } : null,
    pending: r.pending,
  }));
  return keysetPage(view, o.pageSize, (r) => ({ at: r.lastSeen, keys: [r.userId] }), count);
}
