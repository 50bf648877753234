// Skills that use a tool the agent no longer has are deprecated: at once when an agent update
// drops the tool (declareAgent), and by the promotion cycle's staleness sweep. Each skill's
// retirement (unstamp, lifecycle event, skills_version bump for the context caches) commits
// with its own audit row in the caller's transaction. Re-adding the tool revives nothing.
import type { Tx } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { actorLabel, LIVE_SKILL_STATUSES, retireSkill } from "../skills/lifecycle";

export type ToolRemovalTrigger = "manual" | "cadence" | "distill" | "agent_update";

/** Deprecates the agent's live skills declaring a tool outside `toolbox`; returns their ids. */
export async function deprecateSkillsMissingTools(tx: Tx, agentId: string, toolbox: ReadonlySet<string>, audit: AuditContext, trigger: ToolRemovalTrigger): Promise<string[]> {
  const live = await tx.skill.findMany({ where: { agentId, status: { in: [...LIVE_SKILL_STATUSES] } }, select: { id: true, tools: true }, orderBy: { id: "asc" } });
  const done: string[] = [];
  for (const s of live) {
    const missing = s.tools.filter((t) => !toolbox.has(t));
    if (missing.length === 0) continue;
    const reason = `tool removed: ${missing.join(", ")}`;
    if (!(await retireSkill(tx, { id: s.id, agentId }, "DEPRECATED", reason, actorLabel(audit), [...LIVE_SKILL_STATUSES]))) continue;
    await recordAudit(tx, audit, { type: "skill.deprecated", target: { type: "skill", id: s.id }, data: { agent_id: agentId, reason, trigger } });
    done.push(s.id);
  }
  return done;
}
