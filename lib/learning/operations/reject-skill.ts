// Reject a shadow or candidate skill in review: it leaves the inbox and stops covering its
// class, with the reviewer's reason (kept for the audit log and the skill page, never shown to
// the agent or a distiller). Its class is distilled again only from new evidence: the gates then
// count the runs recorded after the rejection alone (the retirement window of
// classes/class-gates.ts), so min_executions new runs passing every gate are needed.
import { z } from "zod";
import type { Db, Tx } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { InvalidState } from "../../errors";
import type { rejectBody } from "../capture/schemas";
import { actorLabel, retireSkill } from "../skills/lifecycle";
import { assertAgentWritable } from "../agents/writable";
import { getSkill, loadSkill } from "../skills/skill-reads";

export type RejectSkillInput = { skillId: string } & z.output<typeof rejectBody>;

type Rejectable = { id: string; agentId: string; version: number; status: string };

export function assertRejectable(skill: Rejectable) {
  if (skill.status !== "SHADOW" && skill.status !== "CANDIDATE") {
    throw new InvalidState(`Only shadow or candidate skills can be rejected; this skill is ${skill.status.toLowerCase()}.`);
  }
}

/** The rejection's writes and audit row, inside the caller's transaction. */
export async function rejectionTx(tx: Tx, skill: Rejectable, reason: string, by: AuditContext) {
  await assertAgentWritable(tx, skill.agentId);
  const ok = await retireSkill(tx, { id: skill.id, agentId: skill.agentId }, "REJECTED", reason, actorLabel(by), ["SHADOW", "CANDIDATE"]);
  if (!ok) throw new InvalidState("The skill changed state meanwhile; only shadow or candidate skills can be rejected.");
  await recordAudit(tx, by, { type: "skill.rejected", target: { type: "skill", id: skill.id }, data: { agent_id: skill.agentId, version: skill.version, reason } });
}

export async function rejectSkill(db: Db, input: RejectSkillInput, by: AuditContext) {
  const skill = await loadSkill(db, input.skillId);
  assertRejectable(skill);
  await db.$transaction((tx) => rejectionTx(tx, skill, input.reason, by));
  return getSkill(db, skill.id);
}
