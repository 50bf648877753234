// The skill operations behind the API: list, read, readiness, activate, demote, promotion
// reports, and context assembly. Routes stay thin; every admin change is audited in its
// own transaction.
import type { Db } from "../db/prisma";
import { recordAudit, type AuditContext } from "../audit/record";
import { resolveLearningConfig, type LearningConfig } from "./config";
import { assembleContext } from "./context";
import { toolboxOf, type PromotionReportView } from "./promotion";
import { shadowReadiness, shadowStatsOf } from "./readiness";
import { retrieveSkills } from "./retrieval";
import { activateSkillTx, retireSkill } from "./skill-lifecycle";
import { skillView, skillViewSelect } from "./skill-view";
import type { ContextBody } from "./schemas";
import { InvalidState, NotFound, Validation } from "../errors";
import { agentNotFound } from "./errors";

type SkillStatus = "CANDIDATE" | "SHADOW" | "ACTIVE" | "DEPRECATED" | "DEMOTED";

async function agentConfig(db: Db, agentId: string): Promise<{ config: LearningConfig; tools: unknown }> {
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

async function loadSkill(db: Db, skillId: string) {
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

export async function activateSkill(db: Db, skillId: string, body: { injection_role?: "user" | "developer"; reason?: string }, audit: AuditContext) {
  const skill = await loadSkill(db, skillId);
  const { config, tools } = await agentConfig(db, skill.agentId);
  if (skill.status !== "SHADOW" && skill.status !== "CANDIDATE") {
    throw new InvalidState(`Only shadow or candidate skills can be activated; this skill is ${skill.status.toLowerCase()}.`);
  }
  const role = body.injection_role ? (body.injection_role === "developer" ? "DEVELOPER" : "USER") : skill.injectionRole;
  if (role === "DEVELOPER" && !config.require_shadow) {
    throw new Validation("Developer authority requires the agent's require_shadow=true (shadow review before activation).", [
      { path: "/injection_role", message: "developer authority requires require_shadow=true" },
    ]);
  }
  const toolbox = toolboxOf(tools);
  const missing = skill.tools.filter((t) => !toolbox.has(t));
  if (missing.length) throw new InvalidState(`The skill uses tools the agent no longer has: ${missing.join(", ")}.`);
  await db.$transaction(async (tx) => {
    const ok = await activateSkillTx(tx, { id: skill.id, agentId: skill.agentId, userScope: skill.userScope, sourceCanonicalHash: skill.sourceCanonicalHash }, {
      injectionRole: role,
      reason: body.reason ?? null,
      actor: audit.actor?.label ?? "system",
    });
    if (!ok) throw new InvalidState("The skill changed state meanwhile; only shadow or candidate skills can be activated.");
    await recordAudit(tx, audit, {
      type: "skill.activated",
      target: { type: "skill", id: skill.id },
      data: { agent_id: skill.agentId, injection_role: role === "DEVELOPER" ? "developer" : "user", version: skill.version, reason: body.reason ?? null },
    });
  });
  return getSkill(db, skillId);
}

export async function demoteSkill(db: Db, skillId: string, reason: string, audit: AuditContext) {
  const skill = await loadSkill(db, skillId);
  if (skill.status !== "ACTIVE") throw new InvalidState(`Only active skills can be demoted; this skill is ${skill.status.toLowerCase()}.`);
  await db.$transaction(async (tx) => {
    const ok = await retireSkill(tx, { id: skill.id, agentId: skill.agentId }, "DEMOTED", reason, audit.actor?.label ?? "system", ["ACTIVE"]);
    if (!ok) throw new InvalidState("The skill changed state meanwhile; only active skills can be demoted.");
    await recordAudit(tx, audit, { type: "skill.demoted", target: { type: "skill", id: skill.id }, data: { agent_id: skill.agentId, version: skill.version, reason } });
  });
  return getSkill(db, skillId);
}

export async function listPromotionReports(db: Db, agentId: string, limit: number) {
  await agentConfig(db, agentId);
  const rows = await db.promotionReport.findMany({ where: { agentId }, orderBy: [{ startedAt: "desc" }, { id: "desc" }], take: limit, select: { report: true } });
  return { reports: rows.map((r) => r.report as PromotionReportView) };
}

export async function agentContext(db: Db, agentId: string, body: ContextBody) {
  const [agent] = await db.$queryRaw<{ learning: unknown; skills_version: number }[]>`SELECT learning, skills_version FROM agents WHERE id = ${agentId}`;
  if (!agent) throw agentNotFound(agentId);
  const config = resolveLearningConfig(agent.learning);
  const skills = await retrieveSkills(db, { id: agentId, skillsVersion: agent.skills_version }, body.user_id ?? "", body.query, config);
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
    kept_memory_ids: assembled.keptMemoryIds,
    dropped_memory_ids: assembled.droppedMemoryIds,
  };
}
