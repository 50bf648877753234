// The console's side of the contract: audited views and actions with the reference's
// messages. The audit row is the gate of each adapter operation, so it is written first in
// the operation's transaction; if it cannot be written the operation never runs (503).
// Adapter failures never leak their text: a conflict is 409, anything else 503.
import type { Db } from "../db/prisma";
import { AuditUnavailableError, type AuditContext } from "../audit/record";
import { problems } from "../api/problem";
import type { PersonaAction } from "./action-body";
import { personaActionEvent, personaAuditGate, type PersonaAuditEvent } from "./audit";
import { personaHistoryLimitFromEnv } from "./config";
import { reflectorFromEnv } from "./llm-reflector";
import { createPgPersonaAdapter } from "./pg-adapter";
import { PersonaConflictError, PersonaNotFoundError, type Gate, type PersonaAdapter, type PersonaState } from "./types";

export const PERSONA_MESSAGES = {
  restricted: "Persona evolution requires an unrestricted operator account",
  disabled: "Persona changes are not enabled for this UI",
  auditUnavailable: "Audited persona access is unavailable",
  conflict: "This action could not be applied. Reload the profile; it may have changed or be paused.",
  unavailable: "Persona service unavailable. Reload to check the saved state before retrying.",
  loadFailed: "The account's learning profile could not be loaded. No changes were made.",
} as const;

export function defaultPersonaAdapter(database: Db): PersonaAdapter {
  return createPgPersonaAdapter(database, { reflector: reflectorFromEnv(), historyLimit: personaHistoryLimitFromEnv() });
}

/** The history's and audit's name for a console user: `operator:<email>`, never from a request body. */
export const operatorId = (label: string) => `operator:${label}`;

async function gateFor(database: Db, audit: AuditContext, userId: string, event: PersonaAuditEvent): Promise<Gate> {
  try {
    return await personaAuditGate(database, audit, userId, event);
  } catch {
    throw new AuditUnavailableError("pseudonym key unavailable");
  }
}

function mapError(e: unknown, requestId: string): never {
  if (e instanceof AuditUnavailableError) throw problems.unavailable(PERSONA_MESSAGES.auditUnavailable);
  if (e instanceof PersonaConflictError) throw problems.conflict(PERSONA_MESSAGES.conflict);
  if (e instanceof PersonaNotFoundError) throw problems.notFound("A persona or conversation for this account");
  console.error(`[${requestId}] persona action failed: ${(e as Error)?.name ?? "error"}`);
  throw problems.unavailable(PERSONA_MESSAGES.unavailable);
}

export async function performPersonaAction(database: Db, adapter: PersonaAdapter, audit: AuditContext, operator: string, a: PersonaAction): Promise<PersonaState> {
  try {
    const gate = await gateFor(database, audit, a.userId, personaActionEvent(a));
    switch (a.action) {
      case "reflect":
        return await adapter.reflect(a.userId, { actorId: operator, trigger: "manual", gate });
      case "approve":
      case "dismiss":
        return await adapter.decide(a.userId, { proposalId: a.proposalId, revision: a.revision, accept: a.action === "approve", actorId: operator, gate });
      case "pause":
        return await adapter.pause(a.userId, { revision: a.revision, paused: a.paused, gate });
      case "schedule":
        return await adapter.schedule(a.userId, { revision: a.revision, dailyEnabled: a.dailyEnabled, gate });
      case "undo":
        return await adapter.undo(a.userId, { revision: a.revision, actorId: operator, gate });
    }
  } catch (e) {
    mapError(e, audit.requestId);
  }
}

export type AuditedView = { state: PersonaState | null } | { error: string; status: 503 };

/** A profile read for the page: audited first; an unwritable audit log means no read at all. */
export async function auditedPersonaView(database: Db, adapter: PersonaAdapter, audit: AuditContext, userId: string): Promise<AuditedView> {
  try {
    const gate = await gateFor(database, audit, userId, { type: "persona_profile.viewed", data: {} });
    return { state: await adapter.view(userId, gate) };
  } catch (e) {
    if (e instanceof AuditUnavailableError) return { error: PERSONA_MESSAGES.auditUnavailable, status: 503 };
    console.error(`[${audit.requestId}] persona view failed: ${(e as Error)?.name ?? "error"}`);
    return { error: PERSONA_MESSAGES.loadFailed, status: 503 };
  }
}
