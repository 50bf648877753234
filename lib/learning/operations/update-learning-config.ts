// Save an agent's learning configuration (the console's settings form): validated at the
// boundary by the API's own schema (developer authority without shadow review is refused),
// stored in place of the old one, and audited with what changed in the same transaction.
// A change of learning_scope regroups the agent's runs and rebuilds its classes first
// (rescopeAgent, shared with the agent's declaration and the MemoRizz import).
import type { Db, Tx } from "../../db/prisma";
import type { Prisma } from "../../db/generated/client";
import { recordAudit, type AuditContext } from "../../audit/record";
import { resolveLearningConfig, type LearningConfig, type LearningScope } from "../agents/config";
import { assertAgentWritable } from "../agents/writable";
import { applyLearningScope, lockClassStatistics } from "../capture/backfill";

/** `learning` has passed learningConfigSchema. */
export type UpdateLearningConfigInput = { agentId: string; learning: LearningConfig };

/** A scope change regroups every run of the agent: more than an ordinary transaction's few seconds. */
export const RESCOPE_TRANSACTION = { maxWait: 15_000, timeout: 300_000 } as const;

const storedScope = async (tx: Tx, agentId: string): Promise<LearningScope | null> => {
  const agent = await tx.agent.findUnique({ where: { id: agentId }, select: { learning: true } });
  return agent ? resolveLearningConfig(agent.learning).learning_scope : null;
};

/**
 * When the agent's stored learning scope is not `to`: regroups its runs under `to` and rebuilds
 * the classes they left or joined (lib/learning/capture/backfill.ts#applyLearningScope), audited
 * as learning_scope.changed. Runs in the caller's transaction, before it writes the agent row
 * (the class lock comes first: see lockClassStatistics); the caller then stores `to`. The scope is
 * read again under the lock, so of two concurrent changes the second sees the first. Whether it
 * regrouped.
 */
export async function rescopeAgent(
  tx: Tx,
  agentId: string,
  to: LearningScope,
  trigger: "agent_update" | "settings" | "memorizz_import",
  by: AuditContext,
): Promise<boolean> {
  const seen = await storedScope(tx, agentId);
  if (seen === null || seen === to) return false;
  await lockClassStatistics(tx);
  const from = await storedScope(tx, agentId);
  if (from === null || from === to) return false;
  const report = await applyLearningScope(tx, agentId, to);
  await recordAudit(tx, by, { type: "learning_scope.changed", target: { type: "agent", id: agentId }, data: { from, to, ...report, trigger } });
  return true;
}

export async function updateLearningConfig(db: Db, input: UpdateLearningConfigInput, by: AuditContext): Promise<LearningConfig> {
  const { agentId, learning: next } = input;
  return db.$transaction(async (tx) => {
    await assertAgentWritable(tx, agentId);
    await rescopeAgent(tx, agentId, next.learning_scope, "settings", by);
    const agent = await tx.agent.findUniqueOrThrow({ where: { id: agentId }, select: { learning: true } });
    const before = resolveLearningConfig(agent.learning);
    const changed = Object.fromEntries(
      (Object.keys(next) as (keyof LearningConfig)[]).filter((k) => before[k] !== next[k]).map((k) => [k, { from: before[k], to: next[k] }]),
    );
    await tx.agent.update({ where: { id: agentId }, data: { learning: next as Prisma.InputJsonValue } });
    await recordAudit(tx, by, { type: "learning_config.updated", target: { type: "agent", id: agentId }, data: { changed } });
    return next;
  }, RESCOPE_TRANSACTION);
}
