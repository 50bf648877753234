// Skill lifecycle writes, each inside the caller's transaction: stamping and unstamping the
// class's runs (indexed updates, never scans), status transitions guarded by conditional
// updates (two reviewers cannot both act on one skill), lifecycle events, and the agent's
// skills_version bump that invalidates context caches in every process.
import type { Tx } from "../../db/prisma";
import type { AuditContext } from "../../audit/record";

/** Statuses of a skill that still covers its class (candidate, shadow or active). */
export const LIVE_SKILL_STATUSES = ["CANDIDATE", "SHADOW", "ACTIVE"] as const;

/**
 * Statuses of a skill that no longer covers its class, dated by demoted_at: the class's gates
 * then count only the runs recorded after the latest of them (the retirement window).
 */
export const RETIRED_SKILL_STATUSES = ["DEMOTED", "DEPRECATED", "REJECTED"] as const;
export type RetiredStatus = (typeof RETIRED_SKILL_STATUSES)[number];

/** Who a lifecycle event names: the acting user or key, or the system. */
export const actorLabel = (audit: AuditContext) => audit.actor?.label ?? "system";

export type SkillEventKind = "skill_candidate_created" | "skill_promoted" | "skill_activated" | "skill_demoted" | "skill_deprecated" | "skill_rejected";

const REASON_CHARS = 2000;

/** `at`: when it happened, for history imported from elsewhere (default: now). */
export async function recordSkillEvent(tx: Tx, e: { skillId: string; agentId: string; event: SkillEventKind; reason?: string | null; actor: string; at?: Date }) {
  await tx.skillEvent.create({
    data: { skillId: e.skillId, agentId: e.agentId, event: e.event, reason: e.reason?.slice(0, REASON_CHARS) ?? null, actor: e.actor, ...(e.at ? { at: e.at } : {}) },
  });
}

export async function bumpSkillsVersion(tx: Tx, agentId: string) {
  await tx.$executeRaw`UPDATE agents SET skills_version = skills_version + 1 WHERE id = ${agentId}`;
}

/** Stamps every run of the class with the ACTIVE skill (index on agent, scope, hash). */
export async function stampClass(tx: Tx, skill: { id: string; agentId: string; userScope: string; sourceCanonicalHash: string }): Promise<number> {
  return tx.$executeRaw`
    UPDATE workflows SET promoted_skill_id = ${skill.id}
    WHERE agent_id = ${skill.agentId} AND user_scope = ${skill.userScope} AND canonical_hash = ${skill.sourceCanonicalHash}
      AND promoted_skill_id IS DISTINCT FROM ${skill.id}`;
}

/** Releases the skill's runs back to retrieval (index on promoted_skill_id). */
export async function unstampSkill(tx: Tx, skillId: string): Promise<number> {
  return tx.$executeRaw`UPDATE workflows SET promoted_skill_id = NULL WHERE promoted_skill_id = ${skillId}`;
}

const RETIRE_EVENT: Record<RetiredStatus, SkillEventKind> = { DEMOTED: "skill_demoted", DEPRECATED: "skill_deprecated", REJECTED: "skill_rejected" };

/**
 * Moves a skill out of `from` into DEMOTED, DEPRECATED or REJECTED with a reason, and unstamps its runs.
 * Returns false (and changes nothing) when the skill is no longer in one of the `from` states.
 */
export async function retireSkill(
  tx: Tx,
  skill: { id: string; agentId: string },
  to: RetiredStatus,
  reason: string,
  actor: string,
  from: ("ACTIVE" | "SHADOW" | "CANDIDATE")[],
  now = new Date(),
): Promise<boolean> {
  const changed = await tx.skill.updateMany({
    where: { id: skill.id, status: { in: from } },
    data: { status: to, demotedAt: now, demotionReason: reason.slice(0, REASON_CHARS) },
  });
  if (changed.count === 0) return false;
  await unstampSkill(tx, skill.id);
  await bumpSkillsVersion(tx, skill.agentId);
  await recordSkillEvent(tx, { skillId: skill.id, agentId: skill.agentId, event: RETIRE_EVENT[to], reason, actor });
  return true;
}

/** SHADOW or CANDIDATE → ACTIVE with the reviewer's authority; stamps the class's runs. */
export async function activateSkillTx(
  tx: Tx,
  skill: { id: string; agentId: string; userScope: string; sourceCanonicalHash: string },
  opts: { injectionRole: "USER" | "DEVELOPER"; reason: string | null; actor: string; now?: Date },
): Promise<boolean> {
  const now = opts.now ?? new Date();
  const changed = await tx.$executeRaw`
    UPDATE skills SET status = 'ACTIVE', injection_role = ${opts.injectionRole}::"InjectionRole",
      promoted_at = COALESCE(promoted_at, ${now}), activation_reason = ${opts.reason}, updated_at = ${now}
    WHERE id = ${skill.id} AND status IN ('SHADOW', 'CANDIDATE')`;
  if (changed === 0) return false;
  await stampClass(tx, skill);
  await bumpSkillsVersion(tx, skill.agentId);
  await recordSkillEvent(tx, { skillId: skill.id, agentId: skill.agentId, event: "skill_activated", reason: opts.reason ?? "activated after review", actor: opts.actor });
  return true;
}
