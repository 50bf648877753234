// One review decision for many skills (the console's bulk review): activate each with its stored
// authority, or reject each, with one reason. Every skill is checked first, then all change in
// one transaction with one audit event each; one refusal (a skill decided meanwhile, a
// qualification not met) changes none of them and names the skill. Skills that bundle scripts are
// refused here for activation: each needs its own reviewed confirmation of those files.
import { z } from "zod";
import type { Db } from "../../db/prisma";
import type { AuditContext } from "../../audit/record";
import { DomainError, InvalidState } from "../../errors";
import { pathId } from "../../path-id";
import { loadSkill } from "../skills/skill-reads";
import { activationTx, checkActivation, type CheckedActivation } from "./activate-skill";
import { assertRejectable, rejectionTx } from "./reject-skill";

/** A page of the review list at most (the list pages by 100). */
export const MAX_BULK_SKILLS = 100;

export const decideSkillsBody = z.object({
  skill_ids: z.array(pathId).min(1).max(MAX_BULK_SKILLS).refine((ids) => new Set(ids).size === ids.length, "each skill once"),
  decision: z.enum(["activate", "reject"]),
  reason: z.string().trim().min(1).max(2000),
});

export type DecideSkillsInput = z.output<typeof decideSkillsBody>;
export type DecideSkillsResult = { decision: DecideSkillsInput["decision"]; skill_ids: string[] };

/** A refusal of one skill, named so the reviewer can find it among many. */
function naming(e: unknown, name: string, version: number): never {
  if (e instanceof DomainError) throw new DomainError(e.kind, `${name} v${version}: ${e.message}`, e.fields, { cause: e });
  throw e;
}

export async function decideSkills(db: Db, input: DecideSkillsInput, by: AuditContext): Promise<DecideSkillsResult> {
  if (input.decision === "reject") {
    const skills: Awaited<ReturnType<typeof loadSkill>>[] = [];
    for (const id of input.skill_ids) {
      const s = await loadSkill(db, id);
      try {
        assertRejectable(s);
      } catch (e) {
        naming(e, s.name, s.version);
      }
      skills.push(s);
    }
    await db.$transaction(async (tx) => {
      for (const s of skills) await rejectionTx(tx, s, input.reason, by).catch((e) => naming(e, s.name, s.version));
    });
    return { decision: "reject", skill_ids: input.skill_ids };
  }
  const checked: CheckedActivation[] = [];
  for (const id of input.skill_ids) {
    const s = await loadSkill(db, id);
    if (s.files.some((f) => f.script)) throw new InvalidState(`${s.name} v${s.version} bundles scripts: activate it on its own, confirming them.`);
    checked.push(await checkActivation(db, { skillId: id, reason: input.reason }, s).catch((e) => naming(e, s.name, s.version)));
  }
  await db.$transaction(async (tx) => {
    for (const c of checked) await activationTx(tx, c, by).catch((e) => naming(e, c.skill.name, c.skill.version));
  });
  return { decision: "activate", skill_ids: input.skill_ids };
}
