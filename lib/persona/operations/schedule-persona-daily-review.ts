// Turn opt-in daily review on or off for an account at the revision the operator saw. On, one
// check is queued no earlier than 24 hours after the last review; off, the queued check is
// dropped (lib/persona/daily-jobs.ts). The audit row and the job commit with the change.
import type { Db } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { auditedAccount } from "../audit";
import { cancelDailyChecks, firstDailyCheck, scheduleDailyCheck } from "../daily-jobs";
import { personaFailure } from "../errors";
import { lockProfileAt } from "../profile-lock";
import { bumpRevision } from "../revision";
import { requireState } from "../state";
import type { PersonaState } from "../types";

export type SchedulePersonaDailyReviewInput = { userId: string; revision: number; dailyEnabled: boolean };

export async function schedulePersonaDailyReview(db: Db, input: SchedulePersonaDailyReviewInput, by: AuditContext): Promise<PersonaState> {
  const { userId, revision, dailyEnabled } = input;
  const type = dailyEnabled ? "persona_daily_review.enabled" : "persona_daily_review.disabled";
  try {
    const target = await auditedAccount(db, userId);
    return await db.$transaction(async (tx) => {
      await recordAudit(tx, by, { type, target, data: { revision } });
      const p = await lockProfileAt(tx, userId, revision);
      await bumpRevision(tx, p, { dailyEnabled, ...(dailyEnabled ? {} : { nextDailyCheckAt: null }) });
      if (dailyEnabled) await scheduleDailyCheck(tx, userId, firstDailyCheck(p.lastReviewAt, new Date()));
      else await cancelDailyChecks(tx, userId);
      return requireState(tx, userId);
    });
  } catch (e) {
    throw personaFailure(e, by, type);
  }
}
