// Dead jobs (failed after every attempt): the agent API's list, and an admin's decision on some of
// them (retry or dismiss: ./operations). Jobs of agents being deleted are left out, as the inbox
// counts them.
import type { Db, Tx } from "../db/prisma";
import { Prisma } from "../db/generated/client";
import { recordAudit, type AuditContext } from "../audit/record";
import { NotFound } from "../errors";
import { DEAD_JOB_BATCH, errorClass, type DeadJobSelection, type DeadJobView } from "./schemas";

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
async function lockDeadJobs(tx: Tx, select: DeadJobSelection, limit: number): Promise<(DeadJobView & { id: bigint })[]> {
  const which =
    "job_id" in select
      ? Prisma.sql`id = ${BigInt(select.job_id)}`
      : Prisma.sql`kind = ${select.kind} AND ${select.agent_id === null ? Prisma.sql`agent_id IS NULL` : Prisma.sql`agent_id = ${select.agent_id}`}`;
  const rows = await tx.$queryRaw<Row[]>`
    SELECT ${COLUMNS} FROM jobs WHERE status = 'DEAD' AND ${which} AND ${live}
    ORDER BY id LIMIT ${limit} FOR UPDATE`;
  return rows.map((r) => ({ ...view(r), id: r.id }));
}

/** What an admin decides for dead jobs: what it does to them, how each is audited, their status after. */
export type DeadJobDecision<S extends string> = {
  apply: (tx: Tx, ids: bigint[]) => Promise<unknown>;
  status: S;
} & ({ event: "job.dismissed"; reason: string } | { event: "job.retried"; reason?: string });

/**
 * An admin's decision on the selected dead jobs (up to DEAD_JOB_BATCH), in one transaction: they
 * are locked, changed, and each audited with its kind, agent, attempts and error class (never
 * its payload). NotFound when none is selected.
 */
export async function decideDeadJobs<S extends string>(db: Db, select: DeadJobSelection, by: AuditContext, decision: DeadJobDecision<S>) {
  return db.$transaction(async (tx) => {
    const jobs = await lockDeadJobs(tx, select, DEAD_JOB_BATCH);
    if (jobs.length === 0) throw new NotFound("The dead job");
    await decision.apply(tx, jobs.map((j) => j.id));
    for (const j of jobs) {
      const target = { type: "job" as const, id: j.job_id };
      const data = { kind: j.kind, agent_id: j.agent_id, attempts: j.attempts, error_class: j.error_class };
      await recordAudit(
        tx,
        by,
        decision.event === "job.dismissed"
          ? { type: decision.event, target, data: { ...data, reason: decision.reason } }
          : { type: decision.event, target, data: { ...data, ...(decision.reason ? { reason: decision.reason } : {}) } },
      );
    }
    return { jobs: jobs.map(({ id: _, ...j }) => ({ ...j, status: decision.status })) };
  });
}
