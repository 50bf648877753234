// A console user changes their own password: the current one is required (a wrong one counts
// toward the sign-in throttle, so a borrowed session cannot guess it), the new one must differ,
// and on request every other session of theirs ends (this one stays). The new hash, the ended
// sessions and the audit row commit together; no password is audited.
import type { z } from "zod";
import type { Db } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { InvalidState, NotFound, Validation } from "../../errors";
import { pseudonym, pseudonymKey } from "../instance-secret";
import { beginLoginAttempt, finishLoginAttempt } from "../login-throttle";
import { hashPassword, verifyPassword } from "../password";
import { endUserSessions } from "../sessions";
import type { changeOwnPasswordSchema } from "../users";

export type ChangeOwnPasswordInput = { userId: string; sessionId: string } & z.output<typeof changeOwnPasswordSchema>;

export async function changeOwnPassword(database: Db, input: ChangeOwnPasswordInput, by: AuditContext) {
  const user = await database.user.findUnique({ where: { id: input.userId }, select: { email: true, passwordHash: true } });
  if (!user) throw new NotFound("The user");
  if (!user.passwordHash) throw new InvalidState("This account signs in with single sign-on and has no password here.");
  const account = pseudonym(await pseudonymKey(database), "login", user.email);
  const client = by.clientHash ?? "unknown";
  const attempt = await beginLoginAttempt(database, account, client);
  if (!attempt.allowed) throw new InvalidState(`Too many wrong passwords; try again in ${attempt.retryAfterSeconds} seconds.`);
  const matches = await verifyPassword(input.current_password, user.passwordHash);
  await finishLoginAttempt(database, { id: attempt.id, account, clientHash: client }, matches);
  if (!matches) throw new Validation("The current password is wrong.", [{ path: "/current_password", message: "is wrong" }]);
  if (input.new_password === input.current_password) {
    throw new Validation("The new password is the current one.", [{ path: "/new_password", message: "must differ from the current password" }]);
  }
  const passwordHash = await hashPassword(input.new_password);
  return database.$transaction(async (tx) => {
    // Only the hash read above is replaced: of two concurrent changes the second is refused.
    const { count } = await tx.user.updateMany({ where: { id: input.userId, passwordHash: user.passwordHash }, data: { passwordHash } });
    if (count === 0) throw new InvalidState("The password was changed meanwhile; sign in again.");
    const ended = input.end_other_sessions ? await endUserSessions(tx, input.userId, "password_changed", input.sessionId) : 0;
    await recordAudit(tx, by, {
      type: "user.password_changed",
      target: { type: "user", id: input.userId },
      data: { other_sessions_ended: ended },
    });
    return { other_sessions_ended: ended };
  });
}
