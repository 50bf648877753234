// Records found by their own id (a skill, a run) for a key bound to agents: another agent's
// record is answered as not found, with the same words as a missing one (lib/auth/key-reach.ts).
import type { Actor } from "../../auth/actor";
import { reachesAgent } from "../../auth/key-reach";
import { db } from "../../db/client";
import { NotFound } from "../../errors";

const bound = (actor: Actor | null) => actor?.type === "api_key" && (actor.binding?.agents.length ?? 0) > 0;

/** Throws NotFound unless the skill belongs to an agent `actor` reaches (no read for unbound callers). */
export async function requireSkillInReach(actor: Actor | null, skillId: string): Promise<void> {
  if (!bound(actor)) return;
  const skill = await db().skill.findUnique({ where: { id: skillId }, select: { agentId: true } });
  if (!skill || !reachesAgent(actor, skill.agentId)) throw new NotFound(`Skill '${skillId}'`);
}

/** `record` when `actor` reaches its agent, else NotFound(`what`). */
export function inReach<T extends { agent_id: string }>(actor: Actor | null, record: T, what: string): T {
  if (!reachesAgent(actor, record.agent_id)) throw new NotFound(what);
  return record;
}

/** Throws NotFound unless the experiment belongs to an agent `actor` reaches (no read for unbound callers). */
export async function requireExperimentInReach(actor: Actor | null, experimentId: string): Promise<void> {
  if (!bound(actor)) return;
  const e = await db().experiment.findUnique({ where: { id: experimentId }, select: { agentId: true } });
  if (!e || !reachesAgent(actor, e.agentId)) throw new NotFound(`Experiment '${experimentId}'`);
}
