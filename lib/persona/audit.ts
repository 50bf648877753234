// The audit row every persona view and requested action writes first, in the operation's own
// transaction. The account appears only as a keyed pseudonym; details hold ids, revisions
// and flags, never goals or evidence text.
import type { Db } from "../db/prisma";
import { recordAudit, type AuditContext } from "../audit/record";
import { pseudonym, pseudonymKey } from "../auth/instance-secret";
import type { Gate } from "./types";

export async function accountPseudonym(database: Db, userId: string): Promise<string> {
  return pseudonym(await pseudonymKey(database), "account", userId);
}

export async function personaAuditGate(
  database: Db,
  ctx: AuditContext,
  action: string,
  userId: string,
  details: Record<string, string | number | boolean> = {},
): Promise<Gate> {
  const target = await accountPseudonym(database, userId);
  return (tx) => recordAudit(tx, ctx, { action, targetType: "account", targetId: target, details: { content_mode: "persona_profile", ...details } });
}
