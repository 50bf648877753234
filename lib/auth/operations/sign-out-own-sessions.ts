// "Sign out everywhere" from a user's own menu: every session of theirs ends, this one included,
// audited with the user as actor. (An admin ending someone else's sessions is signOutEverywhere.)
import type { Db } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { endUserSessions } from "../sessions";

export async function signOutOwnSessions(database: Db, input: { userId: string }, by: AuditContext) {
  return database.$transaction(async (tx) => {
    const ended = await endUserSessions(tx, input.userId, "signed_out_everywhere");
    await recordAudit(tx, by, { type: "user.signed_out_everywhere", target: { type: "user", id: input.userId }, data: { reason: "from their own menu" } });
    return { sessions_ended: ended };
  });
}
