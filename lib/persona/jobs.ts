// Registers the persona daily-review job with the worker runtime. Imported for its side
// effect by the launcher (scripts/start.ts), which runs the worker.
import { registerJobHandler } from "../jobs/runtime";
import { DAILY_REVIEW_JOB } from "./daily-jobs";
import { runDailyCheck } from "./daily";

registerJobHandler(DAILY_REVIEW_JOB, async (database, payload) => {
  const userId = (payload as { user_id?: unknown } | null)?.user_id;
  if (typeof userId !== "string") return;
  await runDailyCheck(database, userId);
});
