// The worker's side of deleting an agent (README "Deleting an agent and exporting data"): batches of at most PROCTOR_AGENT_DELETE_BATCH
// rows (default 2,000), each one statement in its own short transaction, table by table
// (./tables.ts), for at most a few seconds per job run; then, under the agent row's lock, a
// sweep of anything a write racing the mark left, the agent row, and the agent.deleted audit row
// in one transaction. It holds the agent's promotion-cycle lock meanwhile, so a cycle that
// started before the mark finishes first and none runs during the deletion.
import type { Db } from "../../db/prisma";
import { recordAudit, systemAuditContext } from "../../audit/record";
import { isDomainError } from "../../errors";
import { enqueueJob } from "../../jobs/queue";
import { withCycleLock } from "../skills/cycle-lock";
import { batchDeleteSql, deletionSteps, sweepSql, AGENT_DELETION_JOB } from "./deletion-tables";
import { parseProgress, type DeletionPayload } from "./deletion-progress";

export type DeletionOptions = { batch: number; sliceMs: number };

function deletionOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): DeletionOptions {
  const batch = Number(env.PROCTOR_AGENT_DELETE_BATCH);
  return { batch: Number.isInteger(batch) && batch > 0 ? batch : 2000, sliceMs: 5000 };
}

/** One job run: deletes batches until done (true) or out of time (false, progress updated in place). */
async function deleteAgentData(db: Db, agentId: string, progress: DeletionPayload, opts: DeletionOptions): Promise<boolean> {
  const until = Date.now() + opts.sliceMs;
  for (const step of deletionSteps(agentId, progress.include_ledger)) {
    for (;;) {
      if (Date.now() > until) return false;
      const started = performance.now();
      const n = await db.$executeRaw(batchDeleteSql(step, opts.batch));
      progress.longest_batch_ms = Math.max(progress.longest_batch_ms, Math.round(performance.now() - started));
      progress.batches += 1;
      if (n > 0) progress.rows[step.table] = (progress.rows[step.table] ?? 0) + n;
      if (n < opts.batch) break;
    }
  }
  await db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<unknown[]>`SELECT 1 FROM agents WHERE id = ${agentId} FOR UPDATE`;
    if (locked.length === 0) return; // finished by another run of the job
    for (const step of deletionSteps(agentId, progress.include_ledger)) {
      const n = await tx.$executeRaw(sweepSql(step));
      if (n > 0) progress.rows[step.table] = (progress.rows[step.table] ?? 0) + n;
    }
    await tx.$executeRaw`DELETE FROM agents WHERE id = ${agentId}`;
    await recordAudit(tx, systemAuditContext(`job:${AGENT_DELETION_JOB}`), {
      type: "agent.deleted",
      target: { type: "agent", id: agentId },
      data: { include_ledger: progress.include_ledger, rows: progress.rows, batches: progress.batches, longest_batch_ms: progress.longest_batch_ms },
    });
  });
  return true;
}

/** The job handler: one slice under the agent's cycle lock; what is left goes to a new job. */
export async function runAgentDeletionJob(db: Db, payload: unknown, agentId: string | null, opts = deletionOptionsFromEnv()): Promise<void> {
  if (!agentId) return;
  const progress = parseProgress(payload);
  let done: boolean;
  try {
    done = await withCycleLock(db, agentId, () => deleteAgentData(db, agentId, progress, opts));
  } catch (e) {
    if (!isDomainError(e, "conflict")) throw e;
    // A promotion cycle started before the mark is still running: try again shortly.
    await enqueueJob(db, { kind: AGENT_DELETION_JOB, agentId, payload: progress, runAfter: new Date(Date.now() + 2000) });
    return;
  }
  if (!done) await enqueueJob(db, { kind: AGENT_DELETION_JOB, agentId, payload: progress });
}
