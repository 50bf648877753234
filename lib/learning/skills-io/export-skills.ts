// An agent's skills of one status as an Agent Skills archive: a folder per skill. An imported
// skill's folder is every file it came with, byte for byte (SKILL.md as imported, executable bits
// kept), under its own name, so import → export → import is the same folder. A distilled skill's
// folder is its SKILL.md in the format (./agent-skills-format.ts#toAgentSkillMd). Imported skills
// keep their names (the format requires name = folder; a second imported skill of one name, another
// version of the folder, gets `-2`); distilled skills' names are derived from theirs, oldest first,
// a later one whose name is taken getting `-2`, `-3`…
import type { Db } from "../../db/prisma";
import { agentNotFound } from "../errors";
import { toAgentSkillMd, uniqueAgentSkillNames } from "./agent-skills-format";
import { writeArchive } from "./archive";
import type { SkillStatusName } from "../review/skill-query";

export async function exportSkills(db: Db, agentId: string, status: SkillStatusName = "active"): Promise<{ archive: Uint8Array; count: number }> {
  const [agent, skills] = await Promise.all([
    db.agent.findUnique({ where: { id: agentId }, select: { id: true } }),
    db.skill.findMany({
      where: { agentId, status: status.toUpperCase() as Uppercase<SkillStatusName> },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: {
        id: true, name: true, description: true, preconditions: true, tools: true, content: true, version: true, injectionRole: true, baseline: true, sourceCanonicalHash: true,
        imported: { select: { folder: true } },
      },
    }),
  ]);
  if (!agent) throw agentNotFound(agentId);
  const imported = skills.filter((s) => s.imported);
  const distilled = skills.filter((s) => !s.imported);
  const files: { path: string; bytes: Uint8Array | string; executable?: boolean }[] = [];
  // Two imported skills of one name (two versions of a folder): the later one's folder gets `-2`.
  const folders = uniqueAgentSkillNames(imported.map((s) => s.imported!.folder));
  if (imported.length) {
    const stored = await db.skillFile.findMany({
      where: { skillId: { in: imported.map((s) => s.id) } },
      select: { skillId: true, path: true, bytes: true, executable: true },
      orderBy: [{ skillId: "asc" }, { path: "asc" }],
    });
    imported.forEach((s, i) => {
      for (const f of stored) if (f.skillId === s.id) files.push({ path: `${folders[i]}/${f.path}`, bytes: f.bytes, executable: f.executable });
    });
  }
  const names = uniqueAgentSkillNames(distilled.map((s) => s.name), new Set(folders));
  distilled.forEach((s, i) =>
    files.push({
      path: `${names[i]}/SKILL.md`,
      bytes: toAgentSkillMd(
        {
          id: s.id,
          name: s.name,
          description: s.description,
          preconditions: s.preconditions,
          tools: s.tools,
          content: s.content,
          version: s.version,
          authority: s.injectionRole === "DEVELOPER" ? "developer" : "user",
          baselineSuccessRate: baselineRate(s.baseline),
          sourceClass: s.sourceCanonicalHash,
        },
        names[i],
      ),
    }),
  );
  return { archive: writeArchive(files), count: skills.length };
}

function baselineRate(baseline: unknown): number | null {
  const rate = (baseline as { success_rate?: unknown } | null)?.success_rate;
  return typeof rate === "number" && Number.isFinite(rate) ? rate : null;
}
