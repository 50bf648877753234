// The worker side of opt-in daily review. A check that is due reflects only when the account
// has new messages and is neither paused nor awaiting a decision; the result is a proposal
// that still needs an admin's approval. Every check leaves exactly one next check queued.
import type { Db, Tx } from "../db/prisma";
import type { AccountPersona } from "../db/generated/client";
import { systemAuditContext } from "../audit/record";
import { isDomainError } from "../errors";
import { DAY_MS, RECHECK_MS, scheduleDailyCheck } from "./daily-jobs";
import { reflectPersona } from "./operations";
import { lockProfileRow } from "./profile-lock";
import { newEvidence } from "./reflection";

export type DailyOutcome = "disabled" | "not_due" | "paused" | "awaiting_decision" | "no_new_messages" | "reviewed";

export async function runDailyCheck(database: Db, userId: string, now: () => Date = () => new Date()): Promise<DailyOutcome> {
  const p = await database.accountPersona.findUnique({ where: { userId } });
  if (!p || !p.dailyEnabled) return "disabled";
  const at = now();
  const due = p.lastReviewAt ? new Date(p.lastReviewAt.getTime() + DAY_MS) : at;
  if (due > at) {
    await database.$transaction((tx) => reschedule(tx, userId, () => due));
    return "not_due";
  }
  const pending = await database.personaProposal.count({ where: { userId, status: "PENDING" } });
  const fresh = await database.conversationMessage.count({ where: newEvidence(p) });
  const skip: DailyOutcome | null = p.paused ? "paused" : pending ? "awaiting_decision" : fresh === 0 ? "no_new_messages" : null;
  let outcome: string = skip ?? "reviewed";
  if (!skip) {
    const state = await reflectPersona(database, { userId, trigger: "daily" }, systemAuditContext("daily-review")).catch(refusedOrThrow);
    outcome = state?.review_state ?? "failed";
  }
  await database.$transaction(async (tx) => {
    await tx.accountPersona.updateMany({ where: { userId, dailyEnabled: true }, data: { lastDailyCheckAt: at, lastDailyOutcome: outcome } });
    await reschedule(tx, userId, (after) => {
      const reviewed = after.lastReviewAt && after.lastReviewAt.getTime() >= at.getTime();
      return new Date(reviewed ? after.lastReviewAt!.getTime() + DAY_MS : now().getTime() + RECHECK_MS);
    });
  });
  return skip ?? "reviewed";
}

/**
 * A refusal of the domain (the account paused, a reflection started or the account was
 * forgotten since the check looked) ends this check as "failed" and queues the next one.
 * Anything else (a database or audit failure, which the operation answers as unavailable) fails
 * the job, so the worker retries it. Logged by name only: messages may quote goals.
 */
function refusedOrThrow(e: unknown): null {
  const name = (e as Error)?.name ?? "error";
  if (isDomainError(e) && e.kind !== "unavailable") {
    console.error(`persona daily review refused: ${name} (${e.kind})`);
    return null;
  }
  console.error(`persona daily review failed: ${name}`);
  throw e;
}

/** Queues the next check (row locked, as operator actions lock it) unless daily review was turned off meanwhile. */
async function reschedule(tx: Tx, userId: string, when: (p: AccountPersona) => Date) {
  const p = await lockProfileRow(tx, userId);
  if (p?.dailyEnabled) await scheduleDailyCheck(tx, userId, when(p));
}
