// Sessions that can be revoked. Sessions are next-auth JWTs (no session table); each carries
// the user's session version from when it was signed in, and every server-side check
// (lib/auth/session.ts) compares it with the user's row. Raising the version ends every
// session of that user at once: sign-out, deactivation, a role change and "Sign out everywhere"
// do. A reactivated user keeps the raised version, so old sessions stay ended.
import type { Db } from "../db/prisma";

/** The update that ends every existing session of a user (merge into a `user.update` data). */
export const END_SESSIONS = { sessionVersion: { increment: 1 } } as const;

/** Whether a session signed in at `tokenVersion` is still current for this user row. */
export function sessionIsCurrent(user: { active: boolean; sessionVersion: number }, tokenVersion: unknown): boolean {
  return user.active && tokenVersion === user.sessionVersion;
}

/**
 * Sign-out: ends every session of the user, but only when the signing-out session is still
 * current (a copy of an ended session's cookie cannot keep signing its owner out).
 */
export async function endSessionsOnSignOut(database: Db, userId: string, tokenVersion: unknown): Promise<void> {
  if (typeof tokenVersion !== "number") return;
  await database.user.updateMany({ where: { id: userId, sessionVersion: tokenVersion }, data: END_SESSIONS });
}
