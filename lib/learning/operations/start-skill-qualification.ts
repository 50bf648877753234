// Start paired-evaluation qualification of a shadow skill (the console's button): its SKILL.md
// proposed as a ledger procedure (lib/ledger/skills.ts) and the audit row in one transaction,
// the skill row share-locked so that it cannot be activated or retired meanwhile. Repeating it
// returns the existing procedure and writes nothing.
// A learning operation, not a ledger one: an admin's audited decision about a skill, which
// uses the ledger (whose own operations are the agents' unaudited calls).
import { z } from "zod";
import type { Db } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { NotFound } from "../../errors";
import { ledgerIdSchema } from "../../ledger/schemas";
import { proposeSkillQualification } from "../../ledger/skills";
import { assertAgentWritable } from "../agents/writable";
import type { ProcedureRecord } from "../../ledger/types";

export const qualificationBody = z
  .object({
    /** The model the agent runs on: part of the environment fingerprint. */
    model: ledgerIdSchema,
    reason: z.string().trim().min(1).max(2000),
  })
  .strict();

export type StartSkillQualificationInput = { skillId: string } & z.output<typeof qualificationBody>;

export async function startSkillQualification(db: Db, input: StartSkillQualificationInput, by: AuditContext): Promise<{ record: ProcedureRecord; created: boolean }> {
  const { skillId, model, reason } = input;
  return db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM skills WHERE id = ${skillId} FOR SHARE`;
    if (!locked) throw new NotFound("The skill");
    const skill = await tx.skill.findUniqueOrThrow({ where: { id: skillId } });
    await assertAgentWritable(tx, skill.agentId);
    const agent = await tx.agent.findUniqueOrThrow({ where: { id: skill.agentId }, select: { id: true, tools: true, learning: true } });
    const result = await proposeSkillQualification(tx, { skill, agent, model });
    if (result.created) {
      const { scope, proposal } = result.record;
      // Ids and policy only: the SKILL.md body is not audit material.
      await recordAudit(tx, by, {
        type: "skill_qualification.started",
        target: { type: "skill", id: skill.id },
        data: {
          agent_id: skill.agentId,
          procedure_id: proposal.id,
          scope,
          model,
          task: proposal.task,
          baseline_revision: proposal.baseline_revision,
          policy: proposal.policy,
          reason,
        },
      });
    }
    return result;
  });
}
