// Read models of agents for console pages: narrow columns for lists, the full record for
// the detail page. Run counts and last-run times are maintained at ingestion.
import type { Db } from "../db/prisma";
import { resolveLearningConfig, type LearningConfig } from "../learning/config";

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
  const [rows, total] = await Promise.all([
    database.agent.findMany({
      select: { id: true, name: true, tools: true, runCount: true, lastRunAt: true, updatedAt: true },
      orderBy: [{ lastRunAt: { sort: "desc", nulls: "last" } }, { id: "asc" }],
      skip: (page - 1) * pageSize,
      take: pageSize,
    }),
    database.agent.count(),
  ]);
  return { agents: rows.map((r) => ({ ...r, tools: tools(r.tools).map((t) => t.name) })), total };
}

/** Ids and names for the agent switcher (bounded: the switcher is a menu, not a list view). */
export function agentOptions(database: Db, limit = 500): Promise<{ id: string; name: string }[]> {
  return database.agent.findMany({ select: { id: true, name: true }, orderBy: { id: "asc" }, take: limit });
}

export async function getAgentDetail(database: Db, id: string): Promise<AgentDetail | null> {
  const a = await database.agent.findUnique({ where: { id } });
  if (!a) return null;
  return {
    id: a.id,
    name: a.name,
    tools: tools(a.tools),
    learning: resolveLearningConfig(a.learning),
    outcomeRule: a.outcomeRule,
    runCount: a.runCount,
    lastRunAt: a.lastRunAt,
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
  };
}
