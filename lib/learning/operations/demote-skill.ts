// Demote an active skill: it stops being injected, and its class may be promoted again later
// with the reason shown to the distiller. The change and its audit row commit together.
import { z } from "zod";
import type { Db } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { InvalidState } from "../../errors";
import type { demoteBody } from "../capture/schemas";
import { actorLabel, retireSkill } from "../skills/lifecycle";
import { assertAgentWritable } from "../agents/writable";
import { getSkill, loadSkill } from "../skills/skill-reads";

export type DemoteSkillInput = { skillId: string } & z.output<typeof demoteBody>;

export async function demoteSkill(db: Db, input: DemoteSkillInput, by: AuditContext) {
  const { reason } = input;
  const skill = await loadSkill(db, input.skillId);
  if (skill.status !== "ACTIVE") throw new InvalidState(`Only active skills can be demoted; this skill is ${skill.status.toLowerCase()}.`);
  await db.$transaction(async (tx) => {
    await assertAgentWritable(tx, skill.agentId);
    const ok = await retireSkill(tx, { id: skill.id, agentId: skill.agentId }, "DEMOTED", reason, actorLabel(by), ["ACTIVE"]);
    if (!ok) throw new InvalidState("The skill changed state meanwhile; only active skills can be demoted.");
    await recordAudit(tx, by, { type: "skill.demoted", target: { type: "skill", id: skill.id }, data: { agent_id: skill.agentId, version: skill.version, reason } });
  });
  return getSkill(db, skill.id);
}
