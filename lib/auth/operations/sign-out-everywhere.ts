// "Sign out everywhere": end every session of a user at once (their next request signs in
// again), with the admin's reason. The ended sessions and the audit row commit
// together. Ending a deactivated user's sessions is refused: they have none.
import type { z } from "zod";
import type { Db } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { InvalidState, NotFound } from "../../errors";
import { endUserSessions } from "../sessions";
import { userColumns, userView, type userReasonSchema } from "../users";

export type SignOutEverywhereInput = { userId: string } & z.output<typeof userReasonSchema>;

export async function signOutEverywhere(database: Db, input: SignOutEverywhereInput, by: AuditContext) {
  const { userId: id, reason } = input;
  return database.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id }, select: { active: true } });
    if (!user) throw new NotFound("The user");
    if (!user.active) throw new InvalidState("The user is deactivated and has no sessions.");
    await endUserSessions(tx, id, "ended_by_admin");
    await recordAudit(tx, by, { type: "user.signed_out_everywhere", target: { type: "user", id }, data: { reason } });
    return userView(await tx.user.findUniqueOrThrow({ where: { id }, select: userColumns }));
  });
}
