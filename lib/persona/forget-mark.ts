// The forget watermark (issue 16, seed 003's "pause/forget cancellation"): a counter per
// account, raised by every forget in the forget's own transaction. A reflection reads it when
// it claims the review slot and compares it again, with the persona row locked, before writing
// its result: if the account was forgotten meanwhile, nothing the model saw is written. A counter,
// not a time, so the writer's and the forget's clocks never need to agree.
import type { Tx } from "../db/prisma";

export async function forgetMark(tx: Tx, userId: string): Promise<number> {
  const row = await tx.accountForget.findUnique({ where: { userId }, select: { mark: true } });
  return row?.mark ?? 0;
}

/** Raises the account's mark (first forget: 1). Returns the new mark. */
export async function raiseForgetMark(tx: Tx, userId: string, at: Date): Promise<number> {
  const [row] = await tx.$queryRaw<{ mark: number }[]>`
    INSERT INTO account_forgets (user_id, mark, forgotten_at) VALUES (${userId}, 1, ${at})
    ON CONFLICT (user_id) DO UPDATE SET mark = account_forgets.mark + 1, forgotten_at = EXCLUDED.forgotten_at
    RETURNING mark`;
  return row.mark;
}
