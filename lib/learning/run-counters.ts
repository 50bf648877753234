// An agent's run total and newest run: sums over its agent_run_counters slots (see
// lib/learning/ingest/sql.ts for why the counters are split).
import type { Db } from "../db/prisma";

export type RunTotals = { runs: number; lastRunAt: Date | null };

const NONE: RunTotals = { runs: 0, lastRunAt: null };

export async function runTotals(database: Db, agentIds: string[]): Promise<Map<string, RunTotals>> {
  if (agentIds.length === 0) return new Map();
  const rows = await database.$queryRaw<{ agent_id: string; runs: number; last_run_at: Date | null }[]>`
    SELECT agent_id, sum(runs)::int AS runs, max(last_run_at) AS last_run_at
    FROM agent_run_counters WHERE agent_id = ANY(${agentIds}::text[]) GROUP BY agent_id`;
  return new Map(rows.map((r) => [r.agent_id, { runs: r.runs, lastRunAt: r.last_run_at }]));
}

export async function runTotalsOf(database: Db, agentId: string): Promise<RunTotals> {
  return (await runTotals(database, [agentId])).get(agentId) ?? NONE;
}
