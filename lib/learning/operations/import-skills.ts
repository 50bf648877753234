// Import Agent Skills (a zip's SKILL.md files, or one SKILL.md) into an agent as SHADOW skills at
// user authority: imported text stays at user authority until a reviewer activates it,
// and never goes ACTIVE here. Each file passes the machine checks of the distillation gate
// (frontmatter, declared tools in this agent's toolbox, undeclared tool mentions, sections, size,
// literal values leaked), with the agent's recent runs standing in for the source runs it has
// not got: their argument and result fields may be named, their values may not appear. The judge
// (a draft against the runs it was distilled from) has nothing to compare with and does not run.
// The same text imported again is a duplicate of the stored
// skill, never a copy: the skill's source class is `import:<sha256 of its SKILL.md>`, looked up
// under a lock on the agent row so two imports of one text cannot both create it.
import { createHash } from "node:crypto";
import type { Db } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { textProblem } from "../../db/storable-text";
import { applicabilityVectors } from "../inject/applicability";
import { resolveLearningConfig } from "../agents/config";
import { defaultEmbedder } from "../inject/embedder";
import { agentNotFound } from "../errors";
import { toolboxOf } from "../skills/promotion";
import { toSampleRun } from "../distill/sample-run";
import { actorLabel, bumpSkillsVersion, recordSkillEvent } from "../skills/lifecycle";
import { fromAgentSkillMd, type ImportedSkillMd } from "../skills-io/agent-skills-format";
import { toolFieldsOf } from "../distill/tool-mentions";
import { machineChecks } from "../distill/validation-gate";

export type ImportSkillFile = { path: string; folder: string | null; text: string | null };
export type ImportSkillsInput = { agentId: string; format: "zip" | "markdown"; files: ImportSkillFile[]; ignored?: string[] };

export type ImportSkillsResult = {
  agent_id: string;
  created: { file: string; skill_id: string; name: string }[];
  duplicates: { file: string; skill_id: string }[];
  refused: { file: string; reasons: string[] }[];
  ignored: string[];
};

export const IMPORT_CLASS_PREFIX = "import:";
const importClassOf = (content: string) => IMPORT_CLASS_PREFIX + createHash("sha256").update(content, "utf8").digest("hex");

type Accepted = { file: string; skill: ImportedSkillMd; sourceClass: string };

/** The agent's newest runs the gate reads in place of source runs. */
const SAMPLE_RUNS = 20;

export async function importSkills(db: Db, input: ImportSkillsInput, by: AuditContext): Promise<ImportSkillsResult> {
  const agent = await db.agent.findUnique({ where: { id: input.agentId }, select: { tools: true, learning: true } });
  if (!agent) throw agentNotFound(input.agentId);
  const config = resolveLearningConfig(agent.learning);
  const toolbox = toolboxOf(agent.tools);
  const toolFields = toolFieldsOf(agent.tools);
  const recent = (
    await db.workflowRun.findMany({ where: { agentId: input.agentId }, orderBy: { createdAt: "desc" }, take: SAMPLE_RUNS, select: { workflowId: true, query: true, outcome: true, steps: true } })
  ).map(toSampleRun);
  const samples = { successes: recent.filter((r) => r.outcome === "success"), failures: recent.filter((r) => r.outcome === "failure") };

  const result: ImportSkillsResult = { agent_id: input.agentId, created: [], duplicates: [], refused: [], ignored: input.ignored ?? [] };
  const accepted: Accepted[] = [];
  for (const f of input.files) {
    const reasons = fileProblems(f);
    if (reasons.length) {
      result.refused.push({ file: f.path, reasons });
      continue;
    }
    const read = fromAgentSkillMd(f.text!, f.folder);
    if (!read.ok) {
      result.refused.push({ file: f.path, reasons: read.reasons });
      continue;
    }
    const gate = machineChecks({ content: read.skill.content, toolbox, toolFields, maxChars: config.skill_max_content_chars, ...samples });
    if (gate.reasons.length) result.refused.push({ file: f.path, reasons: gate.reasons });
    else accepted.push({ file: f.path, skill: read.skill, sourceClass: importClassOf(read.skill.content.trim()) });
  }

  const embedder = defaultEmbedder();
  const vectors = await Promise.all(accepted.map((a) => applicabilityVectors(embedder, { ...a.skill, queries: [] })));

  await db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM agents WHERE id = ${input.agentId} FOR UPDATE`;
    const stored = await tx.skill.findMany({
      where: { agentId: input.agentId, userScope: "", sourceCanonicalHash: { in: accepted.map((a) => a.sourceClass) } },
      select: { id: true, sourceCanonicalHash: true },
      orderBy: { createdAt: "asc" },
    });
    const known = new Map(stored.map((s) => [s.sourceCanonicalHash, s.id]));
    for (const [i, a] of accepted.entries()) {
      const existing = known.get(a.sourceClass);
      if (existing) {
        result.duplicates.push({ file: a.file, skill_id: existing });
        continue;
      }
      const created = await tx.skill.create({
        data: {
          agentId: input.agentId,
          userScope: "",
          userId: null,
          name: a.skill.name,
          description: a.skill.description,
          preconditions: a.skill.preconditions,
          tools: a.skill.tools,
          queries: [],
          content: a.skill.content.trim(),
          status: "SHADOW",
          version: 1,
          injectionRole: "USER",
          sourceCanonicalHash: a.sourceClass,
          sourceWorkflowIds: [],
          // No runs of this agent stand behind it: no baseline rate, so drift never judges it against one.
          baseline: { executions: 0, success_rate: null, window_start: null, window_end: null },
          recentOutcomes: [],
          reviewFlags: [],
          embedding: vectors[i].embedding,
          embedderId: vectors[i].embedderId,
          queryEmbeddings: vectors[i].queryEmbeddings,
        },
        select: { id: true },
      });
      known.set(a.sourceClass, created.id);
      await recordSkillEvent(tx, { skillId: created.id, agentId: input.agentId, event: "skill_candidate_created", reason: `imported (${input.format})`, actor: actorLabel(by) });
      result.created.push({ file: a.file, skill_id: created.id, name: a.skill.name });
    }
    if (result.created.length) await bumpSkillsVersion(tx, input.agentId);
    // Ids and counts only: file names and SKILL.md text are not audit material.
    await recordAudit(tx, by, {
      type: "skills.imported",
      target: { type: "agent", id: input.agentId },
      data: {
        format: input.format,
        created: result.created.map((c) => c.skill_id),
        duplicates: result.duplicates.map((d) => d.skill_id),
        refused: result.refused.length,
        ignored: result.ignored.length,
      },
    });
  });
  return result;
}

function fileProblems(f: ImportSkillFile): string[] {
  if (f.text === null) return ["not UTF-8 text"];
  const problem = textProblem(f.text);
  return problem ? [`SKILL.md ${problem}`] : [];
}
