// What a reviewer must see of an imported skill before opening it: how many script files it
// bundles (activation confirms them by name) and how many review warnings its import found. Read
// for one page of skills at a time (the skills list, the inbox's rows), never with the file bytes.
import type { Db } from "../../db/prisma";
import { importWarningsOf } from "../skills-io/import-warnings";
import { pluralise } from "../../text/format";

export type SkillMarks = { scripts: number; warnings: number };

export async function skillMarks(db: Db, skillIds: readonly string[]): Promise<Map<string, SkillMarks>> {
  const out = new Map<string, SkillMarks>();
  if (skillIds.length === 0) return out;
  const [imports, scripts] = await Promise.all([
    db.skillImport.findMany({ where: { skillId: { in: [...skillIds] } }, select: { skillId: true, warnings: true } }),
    db.skillFile.groupBy({ by: ["skillId"], where: { skillId: { in: [...skillIds] }, script: true }, _count: { _all: true } }),
  ]);
  for (const i of imports) out.set(i.skillId, { scripts: 0, warnings: importWarningsOf(i.warnings).length });
  for (const s of scripts) out.set(s.skillId, { warnings: out.get(s.skillId)?.warnings ?? 0, scripts: s._count._all });
  return out;
}

/** The marks as a few words for a row ("bundles 2 scripts · 5 review warnings"), or "". */
export function marksText(m: SkillMarks | undefined): string {
  if (!m) return "";
  const parts = [
    m.scripts ? `bundles ${pluralise(m.scripts, "script")}` : "",
    m.warnings ? pluralise(m.warnings, "review warning") : "",
  ].filter(Boolean);
  return parts.join(" · ");
}
