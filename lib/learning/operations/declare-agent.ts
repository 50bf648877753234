// Declare an agent (PUT /agents/{id}): create it, or replace its name, toolbox, learning
// configuration and outcome rule; run counters are kept. Audited as agent.created or
// agent.replaced in the same transaction, which also deprecates every live skill using a tool
// the new toolbox drops (one skill.deprecated row each), so /context stops injecting it at once.
// A learning_scope left out keeps an existing agent's scope (a new one pools: "agent"); a changed
// scope regroups the agent's runs and rebuilds its classes first (rescopeAgent, audited).
import type { Db } from "../../db/prisma";
import { Prisma } from "../../db/generated/client";
import { recordAudit, type AuditContext } from "../../audit/record";
import { agentView } from "../agents/agent";
import { refuseIfDeleting } from "../agents/writable";
import { toolboxOf } from "../skills/promotion";
import { runTotalsOf } from "../agents/run-counters";
import { deprecateSkillsMissingTools } from "../monitor/tool-removal";
import type { AgentPutBody, AgentResponse } from "../capture/schemas";
import { resolveLearningConfig } from "../agents/config";
import { rescopeAgent, RESCOPE_TRANSACTION } from "./update-learning-config";

/** The body has passed agentPutBody (its defaults filled). */
export type DeclareAgentInput = { agentId: string } & AgentPutBody;

export async function declareAgent(db: Db, input: DeclareAgentInput, by: AuditContext): Promise<AgentResponse> {
  const { agentId, name, tools, outcome_rule } = input;
  const agent = await db.$transaction(async (tx) => {
    const [current] = await tx.$queryRaw<{ deleting_at: Date | null; learning: unknown }[]>`
      SELECT deleting_at, learning FROM agents WHERE id = ${agentId} FOR KEY SHARE`;
    refuseIfDeleting(agentId, current?.deleting_at);
    const existed = current !== undefined;
    const learning = { ...input.learning, learning_scope: input.learning.learning_scope ?? (existed ? resolveLearningConfig(current.learning).learning_scope : "agent") };
    if (existed) await rescopeAgent(tx, agentId, learning.learning_scope, "agent_update", by);
    // A nullable JSON column takes SQL NULL only through Prisma's DbNull sentinel.
    // An admin's declaration: the toolbox no longer grows from traces, and a deleted agent may be re-declared by OTLP no more.
    const data = {
      autoDeclared: false,
      name,
      tools: tools as Prisma.InputJsonValue,
      learning: learning as Prisma.InputJsonValue,
      outcomeRule: (outcome_rule as Prisma.InputJsonValue | null) ?? Prisma.DbNull,
    };
    const row = await tx.agent.upsert({
      where: { id: agentId },
      create: { id: agentId, ...data },
      update: data,
    });
    await tx.$executeRaw`DELETE FROM agent_tombstones WHERE agent_id = ${agentId}`;
    await recordAudit(tx, by, {
      type: existed ? "agent.replaced" : "agent.created",
      target: { type: "agent", id: agentId },
      data: { name, tools: tools.map((t) => t.name), learning, outcome_rule },
    });
    if (existed) await deprecateSkillsMissingTools(tx, agentId, toolboxOf(tools), by, "agent_update");
    return row;
  }, RESCOPE_TRANSACTION);
  return agentView(agent, await runTotalsOf(db, agentId));
}
