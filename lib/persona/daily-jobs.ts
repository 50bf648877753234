// The durable jobs behind opt-in daily review: at most one pending `persona_daily_review`
// job per account, moved whenever the next check time changes.
import type { Tx } from "../db/prisma";
import { enqueueJob } from "../jobs/queue";

export const DAILY_REVIEW_JOB = "persona_daily_review";
export const DAY_MS = 24 * 60 * 60 * 1000;
/** How soon to look again when a due check found nothing to do (no new messages, paused, pending). */
export const RECHECK_MS = 60 * 60 * 1000;

/** Drops the account's pending daily-review jobs (the running one, if any, finishes on its own). */
export async function cancelDailyChecks(tx: Tx, userId: string): Promise<void> {
  await tx.$executeRaw`
    UPDATE jobs SET status = 'DONE', finished_at = now()
    WHERE kind = ${DAILY_REVIEW_JOB} AND status = 'PENDING' AND payload->>'user_id' = ${userId}`;
}

/** Sets the next check time and makes exactly one pending job for it. Call with the persona row locked. */
export async function scheduleDailyCheck(tx: Tx, userId: string, at: Date): Promise<void> {
  await cancelDailyChecks(tx, userId);
  await enqueueJob(tx, { kind: DAILY_REVIEW_JOB, payload: { user_id: userId }, runAfter: at });
  await tx.accountPersona.update({ where: { userId }, data: { nextDailyCheckAt: at } });
}

/** No earlier than 24 hours after the last review; now when there was none. */
export function firstDailyCheck(lastReviewAt: Date | null, now: Date): Date {
  if (!lastReviewAt) return now;
  const due = lastReviewAt.getTime() + DAY_MS;
  return new Date(Math.max(due, now.getTime()));
}
