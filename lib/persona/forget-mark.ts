// The forget watermark (README "Forgetting and retention"): a counter per account, raised by
// every forget in the forget's own transaction. A reflection reads it when it claims the review
// slot and compares it again, under the account lock, before writing its result: if the account
// was forgotten meanwhile, nothing the model saw is written. A counter, not a time, so the
// writer's and the forget's clocks never need to agree. The mark names the account by its keyed
// HMAC only (lib/accounts/forget-key.ts).
import type { Tx } from "../db/prisma";
import { forgottenAccount } from "../accounts/forget-key";

/**
 * The account's lock, held to the end of the transaction by a forget and by every persona write
 * before it reads or creates the persona row. A row lock alone cannot order them while the row
 * does not exist yet: a first reflection creating it concurrently with a forget would commit a
 * blank persona and a review after the forget. (A hash collision only serializes two accounts.)
 */
export async function lockAccount(tx: Tx, userId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('proctor:account:' || ${userId}))`;
}

export async function forgetMark(tx: Tx, userId: string): Promise<number> {
  const row = await tx.accountForget.findUnique({ where: { account: forgottenAccount(userId) }, select: { mark: true } });
  return row?.mark ?? 0;
}

/** Raises the account's mark (first forget: 1). Returns the new mark. */
export async function raiseForgetMark(tx: Tx, userId: string, at: Date): Promise<number> {
  const [row] = await tx.$queryRaw<{ mark: number }[]>`
    INSERT INTO account_forget_marks (account, mark, forgotten_at) VALUES (${forgottenAccount(userId)}, 1, ${at})
    ON CONFLICT (account) DO UPDATE SET mark = account_forget_marks.mark + 1, forgotten_at = EXCLUDED.forgotten_at
    RETURNING mark`;
  return row.mark;
}
