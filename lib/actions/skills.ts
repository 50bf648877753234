"use server";
// A skill's review decisions: activate with an authority, demote, reject, the same decision for
// many skills at once (bulk review), and start its paired-evaluation qualification. The agent
// API's activate, demote and reject routes call the same operations.
import { action } from "./action";
import { db } from "../db/client";
import {
  activateSkill as activate,
  decideSkills as decide,
  demoteSkill as demote,
  qualificationBody,
  rejectSkill as reject,
  startSkillQualification,
} from "../learning/operations";
import { decideSkillsBody } from "../learning/operations/decide-skills";
import { activateBody, demoteBody, rejectBody, skillParams } from "../learning/capture/schemas";

export const activateSkill = action("learning:write", activateBody.extend(skillParams.shape), async ({ skill_id, ...body }, { audit }) =>
  activate(db(), { skillId: skill_id, ...body }, audit),
);

export const demoteSkill = action("learning:write", demoteBody.extend(skillParams.shape), async ({ skill_id, reason }, { audit }) =>
  demote(db(), { skillId: skill_id, reason }, audit),
);

export const rejectSkill = action("learning:write", rejectBody.extend(skillParams.shape), async ({ skill_id, reason }, { audit }) =>
  reject(db(), { skillId: skill_id, reason }, audit),
);

export const decideSkills = action("learning:write", decideSkillsBody, async (input, { audit }) => decide(db(), input, audit));

/** created: false when this skill version already had its procedure (nothing was written). */
export const startQualification = action("learning:write", qualificationBody.extend(skillParams.shape), async ({ skill_id, ...body }, { audit }) =>
  startSkillQualification(db(), { skillId: skill_id, ...body }, audit),
);
