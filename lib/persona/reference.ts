// The approved persona an agent binds for one request, and its memory reference. The
// reference's `ref` is a keyed hash of the persona id (HMAC with the installation's pseudonym
// key), so low-entropy ids cannot be guessed back from traces; it carries no goals.
import { createHmac } from "node:crypto";
import { z } from "zod";
import type { Db } from "../db/prisma";
import { pathId } from "../path-id";
import { pseudonymKey } from "../auth/instance-secret";

/** GET /api/v1/accounts/{user_id}/persona?agent_id=… */
export const personaParams = z.object({ user_id: pathId });
export const personaQuery = z.object({ agent_id: pathId.optional() });

export type PersonaReference = { resource_type: "memory"; ref: string; version: string; role: "persona_style" };

export function personaRef(key: Buffer, personaId: string): string {
  return `persona:${createHmac("sha256", key).update(`persona_ref\u0000${personaId}`).digest("hex").slice(0, 32)}`;
}

/**
 * The account's approved persona, or null when it has none: no profile, another agent's
 * profile, or a profile whose only version is the empty starting point (nothing approved yet).
 */
/** `visible`: which agents' personas the caller may read (an agent-bound key reaches only its own). */
export async function approvedPersona(database: Db, userId: string, agentId?: string, visible: (agentId: string) => boolean = () => true) {
  const p = await database.accountPersona.findUnique({ where: { userId } });
  if (!p || p.version <= 1 || (agentId !== undefined && p.agentId !== agentId) || !visible(p.agentId)) return null;
  const reference: PersonaReference = {
    resource_type: "memory",
    ref: personaRef(await pseudonymKey(database), p.personaId),
    version: String(p.version),
    role: "persona_style",
  };
  return { persona_id: p.personaId, version: p.version, name: p.name, role: p.role, goals: p.goals, revision: p.revision, reference };
}
