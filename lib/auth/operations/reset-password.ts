// Reset a user's password to a generated one, returned once (never stored in clear or
// audited), with the admin's reason. Like every credential change it ends the user's sessions:
// the new hash, the ended sessions and the audit row commit together.
import type { z } from "zod";
import type { Db } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { NotFound } from "../../errors";
import { hashPassword, randomPassword } from "../password";
import { endUserSessions } from "../sessions";
import { userColumns, userView, type userReasonSchema } from "../users";

export type ResetPasswordInput = { userId: string } & z.output<typeof userReasonSchema>;

export async function resetPassword(database: Db, input: ResetPasswordInput, by: AuditContext) {
  const { userId: id, reason } = input;
  const password = randomPassword();
  const passwordHash = await hashPassword(password);
  const user = await database.$transaction(async (tx) => {
    const { count } = await tx.user.updateMany({ where: { id }, data: { passwordHash } });
    if (count === 0) throw new NotFound("The user");
    await endUserSessions(tx, id, "ended_by_admin");
    await recordAudit(tx, by, { type: "user.password_reset", target: { type: "user", id }, data: { reason } });
    return tx.user.findUniqueOrThrow({ where: { id }, select: userColumns });
  });
  return { user: userView(user), generatedPassword: password };
}
