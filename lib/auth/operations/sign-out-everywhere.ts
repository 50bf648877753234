// "Sign out everywhere": end every session of a user at once (their next request signs in
// again), with the admin's reason. The raised session version and the audit row commit
// together. Ending a deactivated user's sessions is refused: they have none.
import type { z } from "zod";
import type { Db } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { InvalidState, NotFound } from "../../errors";
import { END_SESSIONS } from "../session-version";
import { userColumns, userView, type userReasonSchema } from "../users";

export type SignOutEverywhereInput = { userId: string } & z.output<typeof userReasonSchema>;

export async function signOutEverywhere(database: Db, input: SignOutEverywhereInput, by: AuditContext) {
  const { userId: id, reason } = input;
  return database.$transaction(async (tx) => {
    const { count } = await tx.user.updateMany({ where: { id, active: true }, data: END_SESSIONS });
    if (count === 0) {
      const exists = await tx.user.findUnique({ where: { id }, select: { id: true } });
      throw exists ? new InvalidState("The user is deactivated and has no sessions.") : new NotFound("The user");
    }
    await recordAudit(tx, by, { type: "user.signed_out_everywhere", target: { type: "user", id }, data: { reason } });
    return userView(await tx.user.findUniqueOrThrow({ where: { id }, select: userColumns }));
  });
}
