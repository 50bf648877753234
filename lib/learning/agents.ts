// Agents: created or replaced by an admin (PUT, audited), read by everyone with access.
import type { Db } from "../db/prisma";
import { Prisma, type Agent } from "../db/generated/client";
import { recordAudit, type AuditContext } from "../audit/record";
import { resolveLearningConfig } from "./config";
import { runTotalsOf, type RunTotals } from "./run-counters";
import type { AgentPutBody, AgentResponse } from "./schemas";
import { agentNotFound } from "./errors";

/**
 * Creates or replaces an agent's name, toolbox, learning configuration and outcome rule; run
 * counters are kept. `body` has passed agentPutBody (its defaults filled).
 */
export async function upsertAgent(db: Db, agentId: string, body: AgentPutBody, audit: AuditContext): Promise<AgentResponse> {
  const { name, tools, learning, outcome_rule } = body;
  // A nullable JSON column takes SQL NULL only through Prisma's DbNull sentinel.
  const data = {
    name,
    tools: tools as Prisma.InputJsonValue,
    learning: learning as Prisma.InputJsonValue,
    outcomeRule: (outcome_rule as Prisma.InputJsonValue | null) ?? Prisma.DbNull,
  };
  const agent = await db.$transaction(async (tx) => {
    const existed = (await tx.agent.count({ where: { id: agentId } })) > 0;
    const row = await tx.agent.upsert({
      where: { id: agentId },
      create: { id: agentId, ...data },
      update: data,
    });
    await recordAudit(tx, audit, {
      type: existed ? "agent.replaced" : "agent.created",
      target: { type: "agent", id: agentId },
      data: { name, tools: tools.map((t) => t.name), learning, outcome_rule },
    });
    return row;
  });
  return agentView(agent, await runTotalsOf(db, agentId));
}

export async function getAgent(db: Db, agentId: string): Promise<AgentResponse> {
  const [agent, totals] = await Promise.all([db.agent.findUnique({ where: { id: agentId } }), runTotalsOf(db, agentId)]);
  if (!agent) throw agentNotFound(agentId);
  return agentView(agent, totals);
}

export function agentView(agent: Agent, totals: RunTotals): AgentResponse {
  return {
    agent_id: agent.id,
    name: agent.name,
    tools: (agent.tools as AgentResponse["tools"]) ?? [],
    learning: resolveLearningConfig(agent.learning),
    outcome_rule: (agent.outcomeRule as AgentResponse["outcome_rule"]) ?? null,
    run_count: totals.runs,
    last_run_at: totals.lastRunAt?.toISOString() ?? null,
    created_at: agent.createdAt.toISOString(),
    updated_at: agent.updatedAt.toISOString(),
  };
}
