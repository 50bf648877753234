// An agent's skills of one status as an Agent Skills archive: `<skill-name>/SKILL.md` per skill.
// Names are derived from the skill names, oldest skill first, so the same skills always give the
// same folders (a later skill whose name collides gets `-2`, `-3`…).
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
      select: { id: true, name: true, description: true, preconditions: true, tools: true, content: true, version: true, injectionRole: true, baseline: true, sourceCanonicalHash: true },
    }),
  ]);
  if (!agent) throw agentNotFound(agentId);
  const names = uniqueAgentSkillNames(skills.map((s) => s.name));
  const files = skills.map((s, i) => ({
    path: `${names[i]}/SKILL.md`,
    text: toAgentSkillMd(
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
  }));
  return { archive: writeArchive(files), count: files.length };
}

function baselineRate(baseline: unknown): number | null {
  const rate = (baseline as { success_rate?: unknown } | null)?.success_rate;
  return typeof rate === "number" && Number.isFinite(rate) ? rate : null;
}
