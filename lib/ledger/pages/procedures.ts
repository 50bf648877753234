// The evidence ledger page: a filtered page of procedures, a skill's procedure named by its
// skill (name, version and agent) rather than its `skill:<id>:v<n>` id.
import "server-only";
import type { Db } from "../../db/prisma";
import type { SearchParams } from "../../console/url";
import { listProcedures, procedureListQuery } from "../console";
import { isSkillProcedureId } from "../skills";

export type ProcedureSkill = { id: string; name: string; version: number; agentId: string };

/** The skill behind each skill procedure of `ids` that still exists, by procedure id. */
async function skillsOf(db: Db, ids: string[]): Promise<Record<string, ProcedureSkill>> {
  const skillIds = ids.filter(isSkillProcedureId).map((id) => id.slice("skill:".length).replace(/:v\d+$/, ""));
  if (!skillIds.length) return {};
  const skills = await db.skill.findMany({ where: { id: { in: skillIds } }, select: { id: true, name: true, version: true, agentId: true } });
  return Object.fromEntries(skills.map((s) => [`skill:${s.id}:v${s.version}`, s]));
}

export async function loadProceduresPage(db: Db, sp: SearchParams) {
  const q = procedureListQuery.parse(sp);
  const { rows, total } = await listProcedures(db, q);
  const skills = await skillsOf(db, rows.map((r) => r.id));
  return { q, rows, total, skills, filtered: Boolean(q.tenant || q.agent || q.environment || q.task || q.state) };
}
