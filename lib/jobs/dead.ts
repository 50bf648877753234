// Reading dead jobs (failed after every attempt): the agent API's list and the rows the retry
// and dismiss operations lock. Jobs of agents being deleted are left out, as the inbox counts them.
import type { Db, Tx } from "../db/prisma";
import { Prisma } from "../db/generated/client";
import { errorClass, type DeadJobSelection, type DeadJobView } from "./schemas";

type Row = { id: bigint; kind: string; agent_id: string | null; attempts: number; last_error: string | null; created_at: Date; finished_at: Date | null };

const view = (r: Row): DeadJobView => ({
  job_id: String(r.id),
  kind: r.kind,
  agent_id: r.agent_id,
  attempts: r.attempts,
  error_class: errorClass(r.last_error),
  created_at: r.created_at.toISOString(),
  failed_at: r.finished_at?.toISOString() ?? null,
});

const COLUMNS = Prisma.sql`id, kind, agent_id, attempts, last_error, created_at, finished_at`;
const live = Prisma.sql`NOT EXISTS (SELECT 1 FROM agents g WHERE g.id = jobs.agent_id AND g.deleting_at IS NOT NULL)`;

/** Dead jobs, newest failure first; `kind` and `agent` narrow them. */
export async function listDeadJobs(db: Db, filter: { kind?: string; agent?: string; limit: number }): Promise<DeadJobView[]> {
  const rows = await db.$queryRaw<Row[]>`
    SELECT ${COLUMNS} FROM jobs
    WHERE status = 'DEAD' AND ${live}
      ${filter.kind ? Prisma.sql`AND kind = ${filter.kind}` : Prisma.empty}
      ${filter.agent ? Prisma.sql`AND agent_id = ${filter.agent}` : Prisma.empty}
    ORDER BY finished_at DESC NULLS LAST, id DESC LIMIT ${filter.limit}`;
  return rows.map(view);
}

/** The selected dead jobs, locked for the caller's transaction (at most `limit`, oldest first). */
export async function lockDeadJobs(tx: Tx, select: DeadJobSelection, limit: number): Promise<(DeadJobView & { id: bigint })[]> {
  const which =
    "job_id" in select
      ? Prisma.sql`id = ${BigInt(select.job_id)}`
      : Prisma.sql`kind = ${select.kind} AND ${select.agent_id === null ? Prisma.sql`agent_id IS NULL` : Prisma.sql`agent_id = ${select.agent_id}`}`;
  const rows = await tx.$queryRaw<Row[]>`
    SELECT ${COLUMNS} FROM jobs WHERE status = 'DEAD' AND ${which} AND ${live}
    ORDER BY id LIMIT ${limit} FOR UPDATE`;
  return rows.map((r) => ({ ...view(r), id: r.id }));
}
