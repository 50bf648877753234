// One run's page: the run in full and the skills it names (activated as context, or covering
// its class), by id, with their names and versions for the links.
import "server-only";
import type { Db } from "../../db/prisma";
import { getRun } from "../review/run-list";

export type NamedSkill = { id: string; name: string; version: number; status: string };

export async function loadRunPage(db: Db, id: string) {
  const run = await getRun(db, id);
  if (!run) return null;
  const ids = [...new Set([...run.skillsActivated, ...(run.promotedSkillId ? [run.promotedSkillId] : [])])];
  const rows = ids.length ? await db.skill.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, version: true, status: true } }) : [];
  const skills = new Map<string, NamedSkill>(rows.map((s) => [s.id, { ...s, status: s.status.toLowerCase() }]));
  return { run, skills };
}
