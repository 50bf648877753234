// One skill for the review page: the API view (with readiness), its agent's review settings,
// the other versions distilled from the same class (for the diff), its lifecycle events, its
// audit history (who activated or demoted it, why, with which authority), the runs it was
// distilled from and its newest deviations (runs that took another path); for an imported skill,
// one of its files for the viewer.
import type { Db } from "../../db/prisma";
import { parseAuditEvent, type AuditEvent } from "../../audit/events";
import { auditNames, NO_NAMES, type AuditNames } from "../../audit/names";
import { isDomainError } from "../../errors";
import { resolveLearningConfig, type LearningConfig } from "../agents/config";
import { getSkill } from "../skills/skill-reads";
import { recentShadowEvaluations, type RecentShadowEvaluation } from "../shadow/recent";
import { recentSkillDeviations, type SkillDeviationEntry } from "./skill-deviations";
import { qualificationSummary, skillQualification, type SkillQualificationSummary } from "../../ledger/skills";
import { qualificationBlocker } from "../skills/qualification-gate";
import type { ImportWarning } from "../skills-io/import-warnings";
import { skillImpact, type SkillImpact } from "./skill-impact";

const HISTORY_LIMIT = 100;
const VERSION_LIMIT = 50;

export type SkillVersion = { id: string; version: number; status: string; name: string; content: string; createdAt: Date; demotedAt: Date | null };

/** An audit row read through the typed union, as the audit page reads it (`event` null for a legacy row). */
export type SkillAuditEntry = {
  id: string;
  at: Date;
  action: string;
  actorLabel: string | null;
  actorRole: string | null;
  event: AuditEvent | null;
};

export type SkillLifecycleEvent = { id: string; at: Date; event: string; actor: string; reason: string | null };

/** `forgottenAt` / `expiredAt`: the run's private fields were removed (its account forgotten, or retention). */
export type SourceRun = { id: string; workflowId: string; outcome: "SUCCESS" | "FAILURE"; query: string; createdAt: Date; forgottenAt: Date | null; expiredAt: Date | null };

export type SkillDetail = {
  skill: Awaited<ReturnType<typeof getSkill>>;
  agentName: string;
  config: Pick<LearningConfig, "require_shadow" | "require_qualification" | "shadow_evaluation_enabled" | "demotion_success_delta" | "drift_window_activations" | "min_activations_before_drift_check">;
  userScope: string;
  versions: SkillVersion[];
  events: SkillLifecycleEvent[];
  audit: SkillAuditEntry[];
  /** Names of the records the audit entries point at (users, keys, agents, skills), as the audit page shows them. */
  auditNames: AuditNames;
  sourceRuns: SourceRun[];
  /** The newest runs that listed the skill but took another path (never in the drift window). */
  deviations: SkillDeviationEntry[];
  /** Shadow and candidate skills: the newest passive evaluations (the agent's recent window). */
  shadowRecent: RecentShadowEvaluation[];
  /** Paired-evaluation qualification: loaded for admins only (viewers do not see the ledger). */
  qualification?: SkillQualificationSummary | null;
  /** Why the qualification gate refuses activation now (admins, with the ledger), or null. */
  activationBlocker?: string | null;
  /** The imported file asked for (`opts.file`), when the skill has it. */
  file?: SkillFileView | null;
  /** The class before and after activation (observational), and the skill's experiments. */
  impact: SkillImpact;
};

/**
 * One file of an imported skill for the viewer: its text (at most VIEW_MAX_CHARS, null for a
 * binary file) and the scan's findings in it. The page renders the text as text, never as markup.
 */
export type SkillFileView = { path: string; size: number; sha256: string; script: boolean; text: string | null; truncated: boolean; findings: ImportWarning[] };

/** Characters of a file the viewer shows. */
export const VIEW_MAX_CHARS = 200_000;

/** `withAudit`: admins only (the audit log names the people who decided). `file`: an imported file to show. */
export async function getSkillDetail(db: Db, skillId: string, opts: { withAudit: boolean; withLedger?: boolean; file?: string }): Promise<SkillDetail | null> {
  let skill: Awaited<ReturnType<typeof getSkill>>;
  try {
    skill = await getSkill(db, skillId);
  } catch (e) {
    if (isDomainError(e, "not_found")) return null;
    throw e;
  }
  const [row, agent] = await Promise.all([
    db.skill.findUniqueOrThrow({ where: { id: skillId }, select: { userScope: true, promotedAt: true } }),
    db.agent.findUniqueOrThrow({ where: { id: skill.agent_id }, select: { name: true, learning: true } }),
  ]);
  const [versions, events, audit, sourceRuns, deviations, impact] = await Promise.all([
    db.skill.findMany({
      where: { agentId: skill.agent_id, userScope: row.userScope, sourceCanonicalHash: skill.source_canonical_hash },
      select: { id: true, version: true, status: true, name: true, content: true, createdAt: true, demotedAt: true },
      orderBy: [{ version: "desc" }, { createdAt: "desc" }],
      take: VERSION_LIMIT,
    }),
    db.skillEvent.findMany({ where: { skillId }, orderBy: [{ at: "desc" }, { id: "desc" }], take: HISTORY_LIMIT }),
    opts.withAudit
      ? db.auditEvent.findMany({ where: { targetType: "skill", targetId: skillId }, orderBy: [{ at: "desc" }, { id: "desc" }], take: HISTORY_LIMIT })
      : Promise.resolve([]),
    db.workflowRun.findMany({
      where: { agentId: skill.agent_id, workflowId: { in: skill.source_workflow_ids } },
      select: { id: true, workflowId: true, outcome: true, query: true, createdAt: true, forgottenAt: true, expiredAt: true },
      orderBy: { createdAt: "desc" },
    }),
    recentSkillDeviations(db, skillId),
    skillImpact(db, { id: skillId, agentId: skill.agent_id, userScope: row.userScope, sourceCanonicalHash: skill.source_canonical_hash, promotedAt: row.promotedAt }),
  ]);
  const config = resolveLearningConfig(agent.learning);
  const auditEntries = audit.map((a) => ({ id: String(a.id), at: a.at, action: a.action, actorLabel: a.actorLabel, actorRole: a.actorRole, event: parseAuditEvent(a) }));
  const parsed = auditEntries.flatMap((a) => (a.event ? [a.event] : []));
  return {
    skill,
    agentName: agent.name,
    config: {
      require_shadow: config.require_shadow,
      require_qualification: config.require_qualification,
      shadow_evaluation_enabled: config.shadow_evaluation_enabled,
      demotion_success_delta: config.demotion_success_delta,
      drift_window_activations: config.drift_window_activations,
      min_activations_before_drift_check: config.min_activations_before_drift_check,
    },
    userScope: row.userScope,
    versions: versions.map((v) => ({ ...v, status: v.status.toLowerCase() })),
    events: events.map((e) => ({ id: String(e.id), at: e.at, event: e.event, actor: e.actor, reason: e.reason })),
    audit: auditEntries,
    auditNames: parsed.length ? await auditNames(db, parsed) : NO_NAMES,
    sourceRuns,
    deviations,
    impact,
    shadowRecent:
      skill.status === "shadow" || skill.status === "candidate" ? await recentShadowEvaluations(db, skillId, config.shadow_evaluation_recent_window) : [],
    ...(opts.withLedger ? await ledgerView(db, skill, config) : {}),
    ...(opts.file !== undefined ? { file: await fileView(db, skill, opts.file) } : {}),
  };
}

async function fileView(db: Db, skill: { skill_id: string; review_warnings: ImportWarning[] }, path: string): Promise<SkillFileView | null> {
  const row = await db.skillFile.findUnique({ where: { skillId_path: { skillId: skill.skill_id, path } }, select: { path: true, size: true, sha256: true, script: true, text: true, bytes: true } });
  if (!row) return null;
  const text = row.text ? new TextDecoder().decode(row.bytes) : null;
  return {
    path: row.path,
    size: row.size,
    sha256: row.sha256,
    script: row.script,
    text: text === null ? null : text.slice(0, VIEW_MAX_CHARS),
    truncated: text !== null && text.length > VIEW_MAX_CHARS,
    findings: skill.review_warnings.filter((w) => w.file === row.path),
  };
}

async function ledgerView(db: Db, skill: { skill_id: string; agent_id: string; version: number; status: string }, config: LearningConfig) {
  const qualification = await skillQualificationOf(db, skill);
  const reviewable = skill.status === "shadow" || skill.status === "candidate";
  return { qualification, activationBlocker: reviewable ? qualificationBlocker(config, qualification) : null };
}

async function skillQualificationOf(db: Db, s: { skill_id: string; agent_id: string; version: number }): Promise<SkillQualificationSummary | null> {
  const record = await skillQualification(db, { id: s.skill_id, agentId: s.agent_id, version: s.version });
  return record ? qualificationSummary(record) : null;
}
