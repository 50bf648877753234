// Delete an agent (DELETE /api/v1/agents/{id}, the agent page's "Delete agent"): one short
// transaction marks it deleting (hidden from lists and the switcher, every write about it
// refused with 409 agent_deleting from its commit on: lib/learning/agents/writable.ts), enqueues
// the worker's deletion job and writes agent.deletion_started. The worker then deletes its data
// in batches (../deletion/run.ts) and finally the agent row, audited as agent.deleted.
// Asked again while under way: nothing new is started (a job that died is enqueued again);
// once finished the agent is unknown (404).
import type { Db, Tx } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { enqueueJob } from "../../jobs/queue";
import { agentNotFound } from "../errors";
import { AGENT_DELETION_JOB } from "../agents/deletion-tables";
import { initialProgress, type DeletionPayload } from "../agents/deletion-progress";
import { dropAgentSummaries } from "../agents/activity-summaries";

export type DeleteAgentInput = { agentId: string; includeLedger: boolean; reason: string | null };

export type AgentDeletion = {
  agent_id: string;
  status: "deleting";
  deleting_since: string;
  include_ledger: boolean;
  /** false when the deletion was already under way (nothing new was started). */
  started: boolean;
};

export async function deleteAgent(db: Db, input: DeleteAgentInput, by: AuditContext): Promise<AgentDeletion> {
  const { agentId, includeLedger, reason } = input;
  return db.$transaction(async (tx) => {
    // FOR UPDATE waits for writes that key-share-locked the row (they passed their check) to commit.
    const [agent] = await tx.$queryRaw<{ deleting_at: Date | null }[]>`SELECT deleting_at FROM agents WHERE id = ${agentId} FOR UPDATE`;
    if (!agent) throw agentNotFound(agentId);
    if (agent.deleting_at) return resumeDeletion(tx, agentId, agent.deleting_at);
    const [{ now }] = await tx.$queryRaw<{ now: Date }[]>`UPDATE agents SET deleting_at = now() WHERE id = ${agentId} RETURNING deleting_at AS now`;
    await dropAgentSummaries(tx, agentId);
    const payload: DeletionPayload = initialProgress(includeLedger);
    await enqueueJob(tx, { kind: AGENT_DELETION_JOB, agentId, payload });
    // Kept after the agent row is gone: OTLP ingestion never declares it again (until an admin does).
    await tx.$executeRaw`INSERT INTO agent_tombstones (agent_id) VALUES (${agentId}) ON CONFLICT (agent_id) DO NOTHING`;
    await recordAudit(tx, by, { type: "agent.deletion_started", target: { type: "agent", id: agentId }, data: { include_ledger: includeLedger, reason } });
    return { agent_id: agentId, status: "deleting", deleting_since: now.toISOString(), include_ledger: includeLedger, started: true };
  });
}

/** The deletion under way, as first asked; its job enqueued again if the last one died. */
async function resumeDeletion(tx: Tx, agentId: string, since: Date): Promise<AgentDeletion> {
  const jobs = await tx.job.findMany({ where: { kind: AGENT_DELETION_JOB, agentId }, orderBy: { id: "desc" }, take: 1, select: { status: true, payload: true } });
  const last = jobs[0];
  const payload = (last?.payload as DeletionPayload | undefined) ?? initialProgress(false);
  if (!last || last.status === "DEAD" || last.status === "DONE") await enqueueJob(tx, { kind: AGENT_DELETION_JOB, agentId, payload });
  return { agent_id: agentId, status: "deleting", deleting_since: since.toISOString(), include_ledger: payload.include_ledger, started: false };
}
