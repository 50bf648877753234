// Run a promotion cycle for one agent: staleness sweep, gates, ranking, distillation and
// validation of the top classes (lib/learning/skills/promotion.ts). An admin runs it by hand
// ("manual"); the worker runs it when an agent crosses its cadence mark ("cadence", with a
// system audit context). One cycle per agent at a time: a second one is a Conflict. The
// report and its audit row commit together.
import type { Db } from "../../db/prisma";
import type { AuditContext } from "../../audit/record";
import { lockedPromotionCycle } from "../skills/promotion-engine";
import type { PromotionReportView } from "../skills/promotion";

export type RunPromotionCycleInput = { agentId: string; trigger: "manual" | "cadence" };

export function runPromotionCycle(db: Db, input: RunPromotionCycleInput, by: AuditContext): Promise<PromotionReportView> {
  return lockedPromotionCycle(db, input.agentId, { trigger: input.trigger, audit: by });
}
