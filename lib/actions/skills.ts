"use server";
// A skill's review decisions: activate with an authority, demote, and start its paired-
// evaluation qualification. The agent API's activate and demote routes call the same operations.
import { action } from "./action";
import { db } from "../db/client";
import { activateSkill as activate, demoteSkill as demote, qualificationBody, startSkillQualification } from "../learning/operations";
import { activateBody, demoteBody, skillParams } from "../learning/capture/schemas";

export const activateSkill = action("learning:write", activateBody.extend(skillParams.shape), async ({ skill_id, ...body }, { audit }) =>
  activate(db(), { skillId: skill_id, ...body }, audit),
);

export const demoteSkill = action("learning:write", demoteBody.extend(skillParams.shape), async ({ skill_id, reason }, { audit }) =>
  demote(db(), { skillId: skill_id, reason }, audit),
);

/** created: false when this skill version already had its procedure (nothing was written). */
export const startQualification = action("learning:write", qualificationBody.extend(skillParams.shape), async ({ skill_id, ...body }, { audit }) =>
  startSkillQualification(db(), { skillId: skill_id, ...body }, audit),
);
