// Failed-login throttle, counted in the database so that every web process agrees. Within a
// minute: at most 5 failures per (account, client address); 20 per account from any addresses
// (guessing spread over many hosts); 20 per address over any accounts (one host trying many
// accounts). An attempt is recorded *before* the password is checked and removed when it
// succeeds, so a burst of parallel guesses cannot slip past the count: the k-th attempt to be
// recorded sees at least k rows.
import type { Prisma } from "../db/generated/client";
import type { Db } from "../db/prisma";

export const LOGIN_FAILURE_LIMIT = 5;
export const ACCOUNT_FAILURE_LIMIT = 20;
export const ADDRESS_FAILURE_LIMIT = 20;
export const LOGIN_FAILURE_WINDOW_MS = 60_000;
/** Rows older than this are garbage; they are pruned opportunistically. */
const RETENTION_MS = 10 * LOGIN_FAILURE_WINDOW_MS;

export type LoginAttempt = { allowed: true; id: bigint } | { allowed: false; retryAfterSeconds: number };

/** `account` and `clientHash` are pseudonyms: no email or address is stored. */
export async function beginLoginAttempt(database: Db, account: string, clientHash: string, now = new Date()): Promise<LoginAttempt> {
  const row = await database.loginFailure.create({ data: { account, clientHash, at: now } });
  const limits: [Prisma.LoginFailureWhereInput, number][] = [
    [{ account, clientHash }, LOGIN_FAILURE_LIMIT],
    [{ account }, ACCOUNT_FAILURE_LIMIT],
    [{ clientHash }, ADDRESS_FAILURE_LIMIT],
  ];
  const waits = await Promise.all(limits.map(([where, limit]) => secondsUntilFree(database, where, limit, now)));
  const wait = Math.max(...waits);
  if (wait === 0) return { allowed: true, id: row.id };
  await database.loginFailure.delete({ where: { id: row.id } });
  return { allowed: false, retryAfterSeconds: wait };
}

/** 0 while the rows matching `where` in the window (this attempt's included) are within `limit`. */
async function secondsUntilFree(database: Db, where: Prisma.LoginFailureWhereInput, limit: number, now: Date): Promise<number> {
  const recent = await database.loginFailure.findMany({
    where: { ...where, at: { gt: new Date(now.getTime() - LOGIN_FAILURE_WINDOW_MS) } },
    orderBy: { at: "desc" },
    take: limit + 1,
    select: { at: true },
  });
  if (recent.length <= limit) return 0;
  // A slot frees when the limit-th newest earlier failure leaves the window.
  const freesAt = recent[limit].at.getTime() + LOGIN_FAILURE_WINDOW_MS;
  return Math.max(1, Math.ceil((freesAt - now.getTime()) / 1000));
}

/** A success clears the pair's failures; a failure keeps the attempt's row as the record. */
export async function finishLoginAttempt(database: Db, attempt: { id: bigint; account: string; clientHash: string }, succeeded: boolean, now = new Date()) {
  if (succeeded) {
    await database.loginFailure.deleteMany({ where: { account: attempt.account, clientHash: attempt.clientHash } });
  }
  await database.loginFailure.deleteMany({ where: { at: { lt: new Date(now.getTime() - RETENTION_MS) } } });
}
