// An agent's run total and newest run: sums over its agent_run_counters slots (see
// lib/learning/capture/ingest-sql.ts for why the counters are split).
import type { Db } from "../../db/prisma";

export type RunTotals = { runs: number; lastRunAt: Date | null };

export async function runTotalsOf(database: Db, agentId: string): Promise<RunTotals> {
  const [row] = await database.$queryRaw<{ runs: number; last_run_at: Date | null }[]>`
    SELECT COALESCE(sum(runs), 0)::int AS runs, max(last_run_at) AS last_run_at
    FROM agent_run_counters WHERE agent_id = ${agentId}`;
  return { runs: row?.runs ?? 0, lastRunAt: row?.last_run_at ?? null };
}
