// Failed-login throttle: at most 5 failures a minute per (account, client address), counted
// in the database so that every web process agrees. An attempt is recorded *before* the
// password is checked and removed when it succeeds, so a burst of parallel guesses cannot
// slip past the count: the k-th attempt to be recorded sees at least k rows.
import type { Db } from "../db/prisma";

export const LOGIN_FAILURE_LIMIT = 5;
export const LOGIN_FAILURE_WINDOW_MS = 60_000;
/** Rows older than this are garbage; they are pruned opportunistically. */
const RETENTION_MS = 10 * LOGIN_FAILURE_WINDOW_MS;

export type LoginAttempt = { allowed: true; id: bigint } | { allowed: false; retryAfterSeconds: number };

/** `account` and `clientHash` are pseudonyms: no email or address is stored. */
export async function beginLoginAttempt(database: Db, account: string, clientHash: string, now = new Date()): Promise<LoginAttempt> {
  const row = await database.loginFailure.create({ data: { account, clientHash, at: now } });
  const since = new Date(now.getTime() - LOGIN_FAILURE_WINDOW_MS);
  const recent = await database.loginFailure.findMany({
    where: { account, clientHash, at: { gt: since } },
    orderBy: { at: "asc" },
    select: { at: true },
  });
  if (recent.length <= LOGIN_FAILURE_LIMIT) return { allowed: true, id: row.id };
  await database.loginFailure.delete({ where: { id: row.id } });
  // The window frees a slot when the oldest counted failure leaves it.
  const oldest = recent[0].at.getTime();
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + LOGIN_FAILURE_WINDOW_MS - now.getTime()) / 1000)) };
}

/** A success clears the pair's failures; a failure keeps the attempt's row as the record. */
export async function finishLoginAttempt(database: Db, attempt: { id: bigint; account: string; clientHash: string }, succeeded: boolean, now = new Date()) {
  if (succeeded) {
    await database.loginFailure.deleteMany({ where: { account: attempt.account, clientHash: attempt.clientHash } });
  }
  await database.loginFailure.deleteMany({ where: { at: { lt: new Date(now.getTime() - RETENTION_MS) } } });
}
