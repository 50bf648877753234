// Agents as everyone with access reads them. An admin declares them (operations/declare-agent).
import type { Db } from "../../db/prisma";
import type { Agent } from "../../db/generated/client";
import { resolveLearningConfig } from "./config";
import { runTotalsOf, type RunTotals } from "./run-counters";
import type { AgentResponse } from "../capture/schemas";
import { agentNotFound } from "../errors";

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
