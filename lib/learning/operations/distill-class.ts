// "Distill now": the promotion cycle restricted to one trajectory class, its gates and
// validation included (nothing is bypassed), under the same per-agent lock. Its report and
// audit row (class.distilled) commit together.
import type { Db } from "../../db/prisma";
import type { AuditContext } from "../../audit/record";
import { lockedPromotionCycle } from "../skills/promotion-engine";
import type { PromotionReportView } from "../skills/promotion";

/** userId: absent for every user scope of the hash, null for runs without a user. */
export type DistillClassInput = { agentId: string; canonicalHash: string; userId?: string | null };

export function distillClass(db: Db, input: DistillClassInput, by: AuditContext): Promise<PromotionReportView> {
  const { agentId, canonicalHash, userId } = input;
  return lockedPromotionCycle(db, agentId, { trigger: "distill", audit: by, only: { canonicalHash, ...(userId !== undefined ? { userId } : {}) } });
}
