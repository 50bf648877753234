// The create form's page: the skill to measure (`skill=`), or, without one, the agent's shadow
// and active skills to choose from (the agent in scope, else every agent's).
import "server-only";
import type { Db } from "../../db/prisma";
import { agentParam } from "../../console/agent-scope";
import { filterText, param, type SearchParams } from "../../console/url";

const MEASURABLE = ["SHADOW", "ACTIVE"] as const;
const select = { id: true, name: true, version: true, status: true, agentId: true } as const;

export async function loadNewExperimentPage(db: Db, sp: SearchParams) {
  const skillId = filterText(param(sp, "skill"));
  const skill = skillId ? await db.skill.findFirst({ where: { id: skillId, status: { in: [...MEASURABLE] } }, select }) : null;
  const choices = skill ? [] : await db.skill.findMany({ where: { agentId: filterText(agentParam(sp)), status: { in: [...MEASURABLE] } }, select, orderBy: [{ agentId: "asc" }, { name: "asc" }], take: 100 });
  return { skill, choices, missing: Boolean(skillId && !skill) };
}
