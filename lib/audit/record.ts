// Audit rows are written in the same transaction as the change they record. If the row
// cannot be written, the transaction fails and the caller gets 503: no unaudited change.
// Only the typed events of ./events are accepted; a payload outside them is a bug and throws
// before anything is written.
import type { Tx } from "../db/prisma";
import { actorRole, type Actor } from "../auth/actor";
import { Unavailable } from "../errors";
import { auditEventSchema, type AuditEvent } from "./events";

export type AuditContext = { actor: Actor | null; requestId: string; clientHash: string | null };

export class AuditUnavailableError extends Unavailable {
  constructor(cause: unknown) {
    super("The audit log could not be written; nothing was changed.", { cause });
  }
}

export async function recordAudit(tx: Tx, ctx: AuditContext, event: AuditEvent): Promise<void> {
  const { type, target, data } = auditEventSchema.parse(event);
  try {
    await tx.auditEvent.create({
      data: {
        actorType: ctx.actor?.type ?? "system",
        actorId: ctx.actor?.id ?? null,
        actorLabel: ctx.actor?.label ?? "system",
        actorRole: ctx.actor ? actorRole(ctx.actor) : null,
        action: type,
        targetType: target.type,
        targetId: target.id,
        requestId: ctx.requestId,
        clientHash: ctx.clientHash,
        details: data,
      },
    });
  } catch (e) {
    throw new AuditUnavailableError(e);
  }
}

export const systemAuditContext = (requestId = "system"): AuditContext => ({ actor: null, requestId, clientHash: null });
