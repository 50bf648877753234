// How persona writes name who acts and on whom. Audit rows and webhooks name the account only by
// its keyed pseudonym (their data holds ids, revisions and flags, never goals or evidence
// text); the persona's own history and reviews name the operator from the session, never from a
// request body.
import type { Db } from "../db/prisma";
import type { AuditContext } from "../audit/record";
import { pseudonym, pseudonymKey } from "../auth/instance-secret";
import { PersonaAuditUnavailable } from "./errors";

export async function accountPseudonym(database: Db, userId: string): Promise<string> {
  return pseudonym(await pseudonymKey(database), "account", userId);
}

/** The audit row's target; read before the operation's transaction, and without it nothing is read or changed. */
export async function auditedAccount(database: Db, userId: string): Promise<{ type: "account"; id: string }> {
  const id = await accountPseudonym(database, userId).catch((e: unknown) => {
    throw new PersonaAuditUnavailable(e);
  });
  return { type: "account", id };
}

/** `operator:<email>` for a signed-in operator, else the daily review's worker. */
export const actorId = (by: AuditContext) => (by.actor ? `operator:${by.actor.label}` : "system:daily-review");
