// What every persona operation shares: the audit row that gates it (written first, in the
// change's own transaction, so an unwritable audit log means no change), the adapter built from
// the host's settings, and the errors callers may see. Anything the adapter throws besides a
// persona conflict or a missing account is logged by name only (never its text, which may quote
// goals) and answered with the reference's "unavailable" message.
import type { Db } from "../../db/prisma";
import { AuditUnavailableError, type AuditContext } from "../../audit/record";
import { Unavailable } from "../../errors";
import { personaAuditGate, type PersonaAuditEvent } from "../audit";
import { personaHistoryLimitFromEnv } from "../config";
import { PERSONA_MESSAGES, PersonaAuditUnavailable, PersonaConflict, PersonaNotFound } from "../errors";
import { reflectorFromEnv } from "../llm-reflector";
import { createPgPersonaAdapter } from "../pg-adapter";
import type { Gate, PersonaAdapter } from "../types";

/** The worker's name in history and reviews when no operator acts (daily review). */
export const DAILY_ACTOR = "system:daily-review";

/** The history's and reviews' name for who acts: `operator:<email>` from the session, never from a request body. */
export const actorId = (by: AuditContext) => (by.actor ? `operator:${by.actor.label}` : DAILY_ACTOR);

/** The account the operation changes and the typed event its audit row records. */
export type AuditedEvent = { userId: string; event: PersonaAuditEvent };

export async function audited<T>(
  database: Db,
  by: AuditContext,
  target: AuditedEvent,
  change: (adapter: PersonaAdapter, gate: Gate) => Promise<T>,
  failure: string = PERSONA_MESSAGES.unavailable,
): Promise<T> {
  try {
    const gate = await personaAuditGate(database, by, target.userId, target.event).catch((e: unknown) => {
      throw new PersonaAuditUnavailable(e);
    });
    const adapter = createPgPersonaAdapter(database, { reflector: reflectorFromEnv(), historyLimit: personaHistoryLimitFromEnv() });
    return await change(adapter, gate);
  } catch (e) {
    if (e instanceof PersonaConflict || e instanceof PersonaNotFound || e instanceof PersonaAuditUnavailable) throw e;
    if (e instanceof AuditUnavailableError) throw new PersonaAuditUnavailable(e);
    console.error(`[${by.requestId}] ${target.event.type} failed: ${(e as Error)?.name ?? "error"}`);
    throw new Unavailable(failure, { cause: e });
  }
}
