// Audit rows are written in the same transaction as the change they record. If the row
// cannot be written, the transaction fails and the caller gets 503: no unaudited change.
import type { Tx } from "../db/prisma";
import { actorRole, type Actor } from "../auth/actor";
import { Unavailable } from "../errors";

export type AuditContext = { actor: Actor | null; requestId: string; clientHash: string | null };

export type AuditEventInput = {
  action: string;
  targetType?: string;
  targetId?: string | null;
  /** Ids, counts, statuses and reasons typed by admins. Never persona goals or conversation text. */
  details?: Record<string, unknown>;
};

export class AuditUnavailableError extends Unavailable {
  constructor(cause: unknown) {
    super("The audit log could not be written; nothing was changed.", { cause });
  }
}

export async function recordAudit(tx: Tx, ctx: AuditContext, event: AuditEventInput): Promise<void> {
  try {
    await tx.auditEvent.create({
      data: {
        actorType: ctx.actor?.type ?? "system",
        actorId: ctx.actor?.id ?? null,
        actorLabel: ctx.actor?.label ?? "system",
        actorRole: ctx.actor ? actorRole(ctx.actor) : null,
        action: event.action,
        targetType: event.targetType ?? null,
        targetId: event.targetId ?? null,
        requestId: ctx.requestId,
        clientHash: ctx.clientHash,
        details: (event.details ?? {}) as object,
      },
    });
  } catch (e) {
    throw new AuditUnavailableError(e);
  }
}

export const systemAuditContext = (requestId = "system"): AuditContext => ({ actor: null, requestId, clientHash: null });
