// The skill reads behind the API: list, read, readiness, promotion reports, and context
// assembly. Activation and demotion are operations (./operations).
import type { Db } from "../../db/prisma";
import { resolveLearningConfig, type LearningConfig } from "../agents/config";
import { assembleContext } from "../inject/context";
import type { PromotionReportView } from "./promotion";
import { shadowReadiness, shadowStatsOf } from "../shadow/readiness";
import { retrieveSkills } from "../inject/retrieval";
import { skillView, skillViewSelect } from "./skill-view";
import type { ContextBody } from "../capture/schemas";
import { NotFound } from "../../errors";
import { agentNotFound } from "../errors";
import { refuseIfDeleting } from "../agents/writable";

type SkillStatus = "CANDIDATE" | "SHADOW" | "ACTIVE" | "DEPRECATED" | "DEMOTED" | "REJECTED";

export async function agentConfig(db: Db, agentId: string): Promise<{ config: LearningConfig; tools: unknown }> {
  const agent = await db.agent.findUnique({ where: { id: agentId }, select: { learning: true, tools: true } });
  if (!agent) throw agentNotFound(agentId);
  return { config: resolveLearningConfig(agent.learning), tools: agent.tools };
}

export async function listSkills(db: Db, agentId: string, opts: { status?: string; limit: number }) {
  const { config } = await agentConfig(db, agentId);
  const skills = await db.skill.findMany({
    where: { agentId, ...(opts.status ? { status: opts.status.toUpperCase() as SkillStatus } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    take: opts.limit,
    select: skillViewSelect,
  });
  return { skills: skills.map((s) => skillView(s, config)) };
}

export async function loadSkill(db: Db, skillId: string) {
  const skill = await db.skill.findUnique({ where: { id: skillId }, select: skillViewSelect });
  if (!skill) throw new NotFound(`Skill '${skillId}'`);
  return skill;
}

export async function getSkill(db: Db, skillId: string) {
  const skill = await loadSkill(db, skillId);
  const { config } = await agentConfig(db, skill.agentId);
  return skillView(skill, config);
}

export async function skillReadiness(db: Db, skillId: string) {
  const skill = await loadSkill(db, skillId);
  const { config } = await agentConfig(db, skill.agentId);
  return shadowReadiness(shadowStatsOf(skill.shadowStats), config);
}

export async function listPromotionReports(db: Db, agentId: string, limit: number) {
  await agentConfig(db, agentId);
  const rows = await db.promotionReport.findMany({ where: { agentId }, orderBy: [{ startedAt: "desc" }, { id: "desc" }], take: limit, select: { report: true } });
  return { reports: rows.map((r) => r.report as PromotionReportView) };
}

export async function agentContext(db: Db, agentId: string, body: ContextBody) {
  const [agent] = await db.$queryRaw<{ learning: unknown; skills_version: number; deleting_at: Date | null }[]>`
    SELECT learning, skills_version, deleting_at FROM agents WHERE id = ${agentId}`;
  if (!agent) throw agentNotFound(agentId);
  refuseIfDeleting(agentId, agent.deleting_at);
  const config = resolveLearningConfig(agent.learning);
  // The agent-wide skills, and under learning_scope "user" the account's own too.
  const skills = await retrieveSkills(db, { id: agentId, skillsVersion: agent.skills_version }, body.user_id ?? null, body.query, config);
  const assembled = assembleContext({
    query: body.query,
    systemPrompt: body.system_prompt,
    provider: body.provider,
    history: body.history,
    memories: body.memories,
    skills,
  });
  return {
    skills: skills.map((s) => ({ skill_id: s.skillId, name: s.name, version: s.version, injection_role: s.injectionRole, similarity: s.similarity })),
    messages: assembled.messages,
    ...(assembled.system !== undefined ? { system: assembled.system } : {}),
    ...(assembled.systemInstruction !== undefined ? { system_instruction: assembled.systemInstruction } : {}),
    kept_memory_ids: assembled.keptMemoryIds,
    dropped_memory_ids: assembled.droppedMemoryIds,
  };
}
