// Import Agent Skills (a zip of skill folders, or one SKILL.md) into an agent as SHADOW skills at
// user authority: imported text stays at user authority until a reviewer activates it, and never
// goes ACTIVE here. A folder is checked against the Agent Skills specification
// (../skills-io/agent-skills-format.ts) and the folder limits (../skills-io/skill-folder.ts), not
// against the sections and machine checks of skills Proctor distills: what those would say
// (declared tools outside this agent's toolbox, names in the body that are no declared tool, a
// SKILL.md longer than the agent's cap) and the script scan's findings are review warnings, kept
// with the skill and shown where it is reviewed. Every file of the folder is stored byte for byte
// (SKILL.md included), so export gives the folder back as it came. The skill is retrieved on its
// description and "When to use" lines (../skills-io/trigger-phrases.ts).
// The same folder imported again is a duplicate of the stored skill, never a copy: the skill's
// source class is `import:<sha256 over its files>`, looked up under a lock on the agent row so
// two imports of one folder cannot both create it.
import type { Db } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { textProblem } from "../../db/storable-text";
import { applicabilityVectors, IMPORT_CLASS_PREFIX } from "../inject/applicability";
import { resolveLearningConfig } from "../agents/config";
import { defaultEmbedder } from "../inject/embedder";
import { agentNotFound } from "../errors";
import { toolboxOf } from "../skills/promotion";
import { actorLabel, bumpSkillsVersion, recordSkillEvent } from "../skills/lifecycle";
import { fromAgentSkillMd, type ImportedSkillMd } from "../skills-io/agent-skills-format";
import { folderDigest, folderProblems, keepFile, SKILL_FILE, type FolderFile, type KeptFile } from "../skills-io/skill-folder";
import { scanFiles, SCAN_RULE_LABEL } from "../skills-io/script-scan";
import { triggerPhrases } from "../skills-io/trigger-phrases";
import { knownFields, toolFieldsOf, undeclaredToolReasons } from "../distill/tool-mentions";
import type { ImportWarning } from "../skills-io/import-warnings";
import { formatNumber, pluralise } from "../../text/format";

/** One skill folder to import: `file` names it in the answer (its SKILL.md's path in the upload), `folder` the name it must carry (null: a lone SKILL.md). */
export type ImportSkillFolder = { file: string; folder: string | null; files: FolderFile[] };
export type ImportSkillsInput = { agentId: string; format: "zip" | "markdown"; folders: ImportSkillFolder[] };

export type ImportSkillsResult = {
  agent_id: string;
  created: { file: string; skill_id: string; name: string; files: number; scripts: string[]; warnings: string[] }[];
  duplicates: { file: string; skill_id: string }[];
  refused: { file: string; reasons: string[] }[];
  /** Files left out: none (every file of a skill folder is kept); kept in the answer for older clients. */
  ignored: string[];
};

export { IMPORT_CLASS_PREFIX } from "../inject/applicability";

type Accepted = { file: string; folder: string; skill: ImportedSkillMd; files: KeptFile[]; digest: string; tools: string[]; warnings: ImportWarning[] };

/** Undeclared names listed in one warning; the rest are counted. */
const LISTED_NAMES = 12;

export async function importSkills(db: Db, input: ImportSkillsInput, by: AuditContext): Promise<ImportSkillsResult> {
  const agent = await db.agent.findUnique({ where: { id: input.agentId }, select: { tools: true, learning: true } });
  if (!agent) throw agentNotFound(input.agentId);
  const config = resolveLearningConfig(agent.learning);
  const toolbox = toolboxOf(agent.tools);
  const toolFields = toolFieldsOf(agent.tools);

  const result: ImportSkillsResult = { agent_id: input.agentId, created: [], duplicates: [], refused: [], ignored: [] };
  const accepted: Accepted[] = [];
  for (const f of input.folders) {
    const read = readFolder(f);
    if (!read.ok) {
      result.refused.push({ file: f.file, reasons: read.reasons });
      continue;
    }
    const { skill, files } = read;
    const warnings: ImportWarning[] = skill.warnings.map((message) => ({ kind: "format", message }));
    const missing = skill.tools.filter((t) => !toolbox.has(t));
    if (missing.length) warnings.push({ kind: "tools", message: `allowed-tools names tools this agent does not declare: ${missing.join(", ")}` });
    const tools = skill.tools.filter((t) => toolbox.has(t));
    const declared = new Set(skill.tools);
    const mentions = undeclaredToolReasons(skill.body, declared, knownFields(new Set(tools), toolFields, [])).map((r) => r.slice(r.lastIndexOf(": ") + 2));
    if (mentions.length) {
      const listed = mentions.slice(0, LISTED_NAMES).join(", ");
      warnings.push({ kind: "mentions", message: `the body names code that is not a declared tool: ${listed}${mentions.length > LISTED_NAMES ? ` (+${mentions.length - LISTED_NAMES} more)` : ""}` });
    }
    if (skill.content.length > config.skill_max_content_chars) {
      warnings.push({ kind: "size", message: `SKILL.md has ${formatNumber(skill.content.length)} characters, over this agent's skill_max_content_chars (${formatNumber(config.skill_max_content_chars)}); it is injected whole` });
    }
    for (const s of scanFiles(files)) warnings.push({ kind: "scan", rule: s.rule, file: s.file, line: s.line, message: `${SCAN_RULE_LABEL[s.rule]}: ${s.excerpt}` });
    accepted.push({ file: f.file, folder: f.folder ?? skill.name, skill, files, digest: folderDigest(files), tools, warnings });
  }

  const embedder = defaultEmbedder();
  const phrases = accepted.map((a) => triggerPhrases(a.skill));
  const vectors = await Promise.all(accepted.map((a, i) => applicabilityVectors(embedder, { ...a.skill, queries: phrases[i] })));

  await db.$transaction(
    async (tx) => {
      await tx.$queryRaw`SELECT id FROM agents WHERE id = ${input.agentId} FOR UPDATE`;
      const stored = await tx.skill.findMany({
        where: { agentId: input.agentId, userScope: "", sourceCanonicalHash: { in: accepted.map((a) => IMPORT_CLASS_PREFIX + a.digest) } },
        select: { id: true, sourceCanonicalHash: true },
        orderBy: { createdAt: "asc" },
      });
      const known = new Map(stored.map((s) => [s.sourceCanonicalHash, s.id]));
      for (const [i, a] of accepted.entries()) {
        const sourceClass = IMPORT_CLASS_PREFIX + a.digest;
        const existing = known.get(sourceClass);
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
            tools: a.tools,
            queries: phrases[i],
            content: a.skill.content,
            status: "SHADOW",
            version: 1,
            injectionRole: "USER",
            sourceCanonicalHash: sourceClass,
            sourceWorkflowIds: [],
            // No runs of this agent stand behind it: no baseline rate, so drift never judges it against one.
            baseline: { executions: 0, success_rate: null, window_start: null, window_end: null },
            recentOutcomes: [],
            reviewFlags: [],
            embedding: vectors[i].embedding,
            embedderId: vectors[i].embedderId,
            queryEmbeddings: vectors[i].queryEmbeddings,
            imported: { create: { agentId: input.agentId, folder: a.folder, sha256: a.digest, warnings: a.warnings } },
          },
          select: { id: true },
        });
        await tx.skillFile.createMany({
          data: a.files.map((f) => ({
            skillId: created.id,
            agentId: input.agentId,
            path: f.path,
            bytes: new Uint8Array(f.bytes),
            sha256: f.sha256,
            size: f.size,
            executable: f.executable,
            script: f.script,
            text: f.text !== null,
          })),
        });
        known.set(sourceClass, created.id);
        const scripts = a.files.filter((f) => f.script).map((f) => f.path);
        await recordSkillEvent(tx, {
          skillId: created.id,
          agentId: input.agentId,
          event: "skill_candidate_created",
          reason: `imported (${input.format}, ${pluralise(a.files.length, "file")}, ${pluralise(scripts.length, "script")}, ${pluralise(a.warnings.length, "review warning")})`,
          actor: actorLabel(by),
        });
        result.created.push({ file: a.file, skill_id: created.id, name: a.skill.name, files: a.files.length, scripts, warnings: a.warnings.map(warningText) });
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
          ignored: 0,
          files: result.created.reduce((n, c) => n + c.files, 0),
          scripts: result.created.reduce((n, c) => n + c.scripts.length, 0),
        },
      });
    },
    // A folder may hold megabytes: the files' insert gets the time it needs.
    { maxWait: 15_000, timeout: 60_000 },
  );
  return result;
}

/** The folder's SKILL.md read against the specification and its files kept, or why it is refused. */
function readFolder(f: ImportSkillFolder): { ok: true; skill: ImportedSkillMd; files: KeptFile[] } | { ok: false; reasons: string[] } {
  const problems = folderProblems(f.files);
  if (problems.length) return { ok: false, reasons: problems };
  const files = f.files.map(keepFile).sort((a, b) => (a.path < b.path ? -1 : 1));
  const md = files.find((x) => x.path === SKILL_FILE);
  if (!md || md.text === null) return { ok: false, reasons: [`${SKILL_FILE} is not UTF-8 text`] };
  const problem = textProblem(md.text);
  if (problem) return { ok: false, reasons: [`${SKILL_FILE} ${problem}`] };
  const read = fromAgentSkillMd(md.text, f.folder);
  return read.ok ? { ok: true, skill: read.skill, files } : read;
}

/** A warning as one line of the import's answer. */
export const warningText = (w: ImportWarning) => (w.file ? `${w.file}${w.line ? `:${w.line}` : ""}: ${w.message}` : w.message);

