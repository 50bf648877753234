// The learning configuration of the agents a review page looks at (one, or all of them),
// resolved with defaults. Agents are few; their classes and runs are what is paged.
import type { Db } from "../../db/prisma";
import { resolveLearningConfig, type LearningConfig } from "../agents/config";

export type AgentConfig = { id: string; name: string; config: LearningConfig };

export async function agentConfigs(db: Db, agentId?: string): Promise<AgentConfig[]> {
  const rows = await db.agent.findMany({
    // An agent being deleted is hidden at once.
    where: { deletingAt: null, ...(agentId ? { id: agentId } : {}) },
    select: { id: true, name: true, learning: true },
    orderBy: { id: "asc" },
  });
  return rows.map((a) => ({ id: a.id, name: a.name, config: resolveLearningConfig(a.learning) }));
}

/** `LIKE` pattern text with its wildcards escaped (PostgreSQL's default escape is backslash). */
export function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
