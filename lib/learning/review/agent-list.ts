// Read models of agents for console pages: narrow columns for lists, the full record for
// the detail page. Agents being deleted (deleting_at set) are left out of all of them. Run counts and last-run times are maintained at ingestion (agent_run_counters).
import type { Db } from "../../db/prisma";
import { resolveLearningConfig, type LearningConfig } from "../agents/config";
import { runTotalsOf } from "../agents/run-counters";

export type Tool = { name: string; description: string };

export type AgentSummary = { id: string; name: string; tools: string[]; runCount: number; lastRunAt: Date | null; updatedAt: Date };

export type AgentDetail = {
  id: string;
  name: string;
  tools: Tool[];
  learning: LearningConfig;
  outcomeRule: unknown;
  runCount: number;
  lastRunAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

function tools(value: unknown): Tool[] {
  if (!Array.isArray(value)) return [];
  return value.map((t) => ({ name: String((t as Tool)?.name ?? ""), description: String((t as Tool)?.description ?? "") }));
}

export async function listAgentSummaries(database: Db, page: number, pageSize: number): Promise<{ agents: AgentSummary[]; total: number }> {
  // Most recently active first, with the run totals summed from the counters in the same query.
  const [rows, total] = await Promise.all([
    database.$queryRaw<{ id: string; name: string; tools: unknown; updated_at: Date; runs: number; last_run_at: Date | null }[]>`
      SELECT a.id, a.name, a.tools, a.updated_at, COALESCE(c.runs, 0)::int AS runs, c.last_run_at
      FROM agents a
      LEFT JOIN (SELECT agent_id, sum(runs) AS runs, max(last_run_at) AS last_run_at FROM agent_run_counters GROUP BY agent_id) c
        ON c.agent_id = a.id
      WHERE a.deleting_at IS NULL
      ORDER BY c.last_run_at DESC NULLS LAST, a.id
      OFFSET ${(page - 1) * pageSize} LIMIT ${pageSize}`,
    database.agent.count({ where: { deletingAt: null } }),
  ]);
  const agents = rows.map((r) => ({
    id: r.id,
    name: r.name,
    tools: tools(r.tools).map((t) => t.name),
    runCount: r.runs,
    lastRunAt: r.last_run_at,
    updatedAt: r.updated_at,
  }));
  return { agents, total };
}

/** Ids and names for the agent switcher (bounded: the switcher is a menu, not a list view). */
export function agentOptions(database: Db, limit = 500): Promise<{ id: string; name: string }[]> {
  return database.agent.findMany({ where: { deletingAt: null }, select: { id: true, name: true }, orderBy: { id: "asc" }, take: limit });
}

export async function getAgentDetail(database: Db, id: string): Promise<AgentDetail | null> {
  const [a, totals] = await Promise.all([database.agent.findUnique({ where: { id } }), runTotalsOf(database, id)]);
  // An agent being deleted is gone for the console at once (the audit log shows the deletion).
  if (!a || a.deletingAt) return null;
  return {
    id: a.id,
    name: a.name,
    tools: tools(a.tools),
    learning: resolveLearningConfig(a.learning),
    outcomeRule: a.outcomeRule,
    runCount: totals.runs,
    lastRunAt: totals.lastRunAt,
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
  };
}
