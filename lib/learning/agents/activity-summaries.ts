// The activity summaries (thread_summaries, account_agent_summaries, account_summaries) are kept
// by triggers on workflows and conversation_messages (migration read_summaries). An agent whose
// deletion starts is hidden at once: its summary rows go in the marking transaction and its
// accounts are summed again from their other agents; the deletion's batches then find nothing
// of it to change.
import type { Tx } from "../../db/prisma";

export async function dropAgentSummaries(tx: Tx, agentId: string): Promise<void> {
  await tx.$executeRaw`DELETE FROM thread_summaries WHERE agent_id = ${agentId}`;
  const gone = await tx.$queryRaw<{ user_id: string }[]>`DELETE FROM account_agent_summaries WHERE agent_id = ${agentId} RETURNING user_id`;
  if (gone.length > 0) await tx.$executeRaw`SELECT refresh_account_summaries(${gone.map((r) => r.user_id)}::text[])`;
}
