// The audit row every persona view and requested action writes first, in the operation's own
// transaction. The account appears only as a keyed pseudonym; data holds ids, revisions
// and flags, never goals or evidence text.
import type { Db } from "../db/prisma";
import { recordAudit, type AuditContext } from "../audit/record";
import type { AuditEvent } from "../audit/events";
import { pseudonym, pseudonymKey } from "../auth/instance-secret";
import type { Gate } from "./types";

/** The account events without their target, which is always the account's pseudonym. */
export type PersonaAuditEvent = AuditEvent extends infer E ? (E extends { target: { type: "account" } } ? Omit<E, "target"> : never) : never;

export async function accountPseudonym(database: Db, userId: string): Promise<string> {
  return pseudonym(await pseudonymKey(database), "account", userId);
}

export async function personaAuditGate(database: Db, ctx: AuditContext, userId: string, event: PersonaAuditEvent): Promise<Gate> {
  const target = await accountPseudonym(database, userId);
  return (tx) => recordAudit(tx, ctx, { ...event, target: { type: "account", id: target } });
}
