// Save an agent's learning configuration (the console's settings form): validated at the
// boundary by the API's own schema (developer authority without shadow review is refused),
// stored in place of the old one, and audited with what changed in the same transaction.
import type { Db } from "../../db/prisma";
import type { Prisma } from "../../db/generated/client";
import { recordAudit, type AuditContext } from "../../audit/record";
import { resolveLearningConfig, type LearningConfig } from "../agents/config";
import { assertAgentWritable } from "../agents/writable";

/** `learning` has passed learningConfigSchema. */
export type UpdateLearningConfigInput = { agentId: string; learning: LearningConfig };

export async function updateLearningConfig(db: Db, input: UpdateLearningConfigInput, by: AuditContext): Promise<LearningConfig> {
  const { agentId, learning: next } = input;
  return db.$transaction(async (tx) => {
    await assertAgentWritable(tx, agentId);
    const agent = await tx.agent.findUniqueOrThrow({ where: { id: agentId }, select: { learning: true } });
    const before = resolveLearningConfig(agent.learning);
    const changed = Object.fromEntries(
      (Object.keys(next) as (keyof LearningConfig)[]).filter((k) => before[k] !== next[k]).map((k) => [k, { from: before[k], to: next[k] }]),
    );
    await tx.agent.update({ where: { id: agentId }, data: { learning: next as Prisma.InputJsonValue } });
    await recordAudit(tx, by, { type: "learning_config.updated", target: { type: "agent", id: agentId }, data: { changed } });
    return next;
  });
}
