// Activate a shadow or candidate skill: it starts being injected into the agent's context,
// with the authority chosen here (or the one stored). The change and its audit row commit
// together; a skill retired or activated meanwhile is refused. When the agent requires
// qualification, the skill's ledger procedure must be ACTIVE, read share-locked in the same
// transaction (a concurrent suspension either waits and then demotes the skill, or is seen);
// a refusal writes nothing (the reference audits decisions, not refused attempts). An imported
// skill that bundles scripts is activated only with `confirm_scripts` naming exactly them.
import { z } from "zod";
import type { Db, Tx } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { InvalidState, Validation } from "../../errors";
import { qualificationSummary, skillQualification } from "../../ledger/skills";
import { toolboxOf } from "../skills/promotion";
import { assertAgentWritable } from "../agents/writable";
import { qualificationBlocker } from "../skills/qualification-gate";
import type { activateBody } from "../capture/schemas";
import { activateSkillTx, actorLabel } from "../skills/lifecycle";
import { agentConfig, getSkill, loadSkill } from "../skills/skill-reads";
import { scriptsUnconfirmed } from "../errors";

export type ActivateSkillInput = { skillId: string } & z.output<typeof activateBody>;

/** An activation checked outside the transaction: what activationTx writes. */
export type CheckedActivation = Awaited<ReturnType<typeof checkActivation>>;

/**
 * The checks that need no lock: status, authority, toolbox and confirmed scripts. `loaded`: the
 * skill, when the caller has read it already (bulk review).
 */
export async function checkActivation(db: Db, input: ActivateSkillInput, loaded?: Awaited<ReturnType<typeof loadSkill>>) {
  const skill = loaded ?? (await loadSkill(db, input.skillId));
  const { config, tools } = await agentConfig(db, skill.agentId);
  if (skill.status !== "SHADOW" && skill.status !== "CANDIDATE") {
    throw new InvalidState(`Only shadow or candidate skills can be activated; this skill is ${skill.status.toLowerCase()}.`);
  }
  const role = input.injection_role ? (input.injection_role === "developer" ? "DEVELOPER" : "USER") : skill.injectionRole;
  if (role === "DEVELOPER" && !config.require_shadow) {
    throw new Validation("Developer authority requires the agent's require_shadow=true (shadow review before activation).", [
      { path: "/injection_role", message: "developer authority requires require_shadow=true" },
    ]);
  }
  const toolbox = toolboxOf(tools);
  const missing = skill.tools.filter((t) => !toolbox.has(t));
  if (missing.length) throw new InvalidState(`The skill uses tools the agent no longer has: ${missing.join(", ")}.`);
  const scripts = skill.files.filter((f) => f.script).map((f) => f.path);
  const confirmed = new Set(input.confirm_scripts ?? []);
  if (confirmed.size !== scripts.length || scripts.some((p) => !confirmed.has(p))) throw scriptsUnconfirmed(scripts);
  return { skill, config, role, scripts, reason: input.reason ?? null };
}

/** The activation's writes and audit row, inside the caller's transaction. */
export async function activationTx(tx: Tx, { skill, config, role, scripts, reason }: CheckedActivation, by: AuditContext) {
  await assertAgentWritable(tx, skill.agentId);
  if (config.require_qualification) {
    const record = await skillQualification(tx, { id: skill.id, agentId: skill.agentId, version: skill.version }, { lock: true });
    const blocker = qualificationBlocker(config, record && qualificationSummary(record));
    if (blocker) throw new InvalidState(blocker);
  }
  const ok = await activateSkillTx(tx, { id: skill.id, agentId: skill.agentId, userScope: skill.userScope, sourceCanonicalHash: skill.sourceCanonicalHash }, {
    injectionRole: role,
    reason,
    actor: actorLabel(by),
  });
  if (!ok) throw new InvalidState("The skill changed state meanwhile; only shadow or candidate skills can be activated.");
  await recordAudit(tx, by, {
    type: "skill.activated",
    target: { type: "skill", id: skill.id },
    data: { agent_id: skill.agentId, injection_role: role === "DEVELOPER" ? "developer" : "user", version: skill.version, reason, ...(scripts.length ? { confirmed_scripts: scripts } : {}) },
  });
}

export async function activateSkill(db: Db, input: ActivateSkillInput, by: AuditContext) {
  const checked = await checkActivation(db, input);
  await db.$transaction((tx) => activationTx(tx, checked, by));
  return getSkill(db, checked.skill.id);
}
