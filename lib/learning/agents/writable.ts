// Whether an agent may still be written: every write about an agent asks here first (or, for
// ingestion's single statement, asks the same question in its SQL guard). Once its deletion has
// started (agents.deleting_at) the answer is 409 agent_deleting. Inside a transaction
// the row is key-share-locked, so the deletion's marking (which takes the row FOR UPDATE) waits
// for a write that already passed this check to commit, and no write starts after it.
import type { Db, Tx } from "../../db/prisma";
import { agentDeleting, agentNotFound } from "../errors";

/** Throws NotFound for an unknown agent and AgentDeleting for one being deleted. */
export async function assertAgentWritable(q: Db | Tx, agentId: string): Promise<void> {
  const [row] = await q.$queryRaw<{ deleting: boolean }[]>`
    SELECT deleting_at IS NOT NULL AS deleting FROM agents WHERE id = ${agentId} FOR KEY SHARE`;
  if (!row) throw agentNotFound(agentId);
  if (row.deleting) throw agentDeleting(agentId);
}

/** Whether the agent's deletion has started (a job about it then has nothing left to do). */
export async function agentBeingDeleted(q: Db | Tx, agentId: string): Promise<boolean> {
  const [row] = await q.$queryRaw<{ deleting: boolean }[]>`SELECT deleting_at IS NOT NULL AS deleting FROM agents WHERE id = ${agentId}`;
  return row?.deleting ?? false;
}

/** For reads that already loaded the agent's row: the same refusal from its deleting_at. */
export function refuseIfDeleting(agentId: string, deletingAt: Date | null | undefined): void {
  if (deletingAt) throw agentDeleting(agentId);
}
