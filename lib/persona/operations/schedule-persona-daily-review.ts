// Turn opt-in daily review on or off for an account. On, one check is queued no earlier than
// 24 hours after the last review; off, the queued check is dropped.
import type { Db } from "../../db/prisma";
import type { AuditContext } from "../../audit/record";
import type { PersonaState } from "../types";
import { audited } from "./audited";

export type SchedulePersonaDailyReviewInput = { userId: string; revision: number; dailyEnabled: boolean };

export function schedulePersonaDailyReview(database: Db, input: SchedulePersonaDailyReviewInput, by: AuditContext): Promise<PersonaState> {
  const { userId, revision, dailyEnabled } = input;
  return audited(database, by, { userId, event: { type: dailyEnabled ? "persona_daily_review.enabled" : "persona_daily_review.disabled", data: { revision } } }, (adapter, gate) =>
    adapter.schedule(userId, { revision, dailyEnabled, gate }),
  );
}
