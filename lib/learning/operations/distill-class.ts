// "Distill now": the promotion cycle restricted to one trajectory class, its gates and
// validation included (nothing is bypassed), under the same per-agent lock. Its report and
// audit row (class.distilled) commit together.
import { z } from "zod";
import type { Db } from "../../db/prisma";
import type { AuditContext } from "../../audit/record";
import { pathId } from "../../ids";
import { lockedPromotionCycle } from "../engine";
import type { PromotionReportView } from "../promotion";

/** The console's body: the class's user scope is always named (null: runs without a user). */
export const distillBody = z
  .object({
    canonical_hash: pathId,
    user_id: z.string().max(256).nullable(),
  })
  .strict();

/** userId: absent for every user scope of the hash, null for runs without a user. */
export type DistillClassInput = { agentId: string; canonicalHash: string; userId?: string | null };

export function distillClass(db: Db, input: DistillClassInput, by: AuditContext): Promise<PromotionReportView> {
  const { agentId, canonicalHash, userId } = input;
  return lockedPromotionCycle(db, agentId, { trigger: "distill", audit: by, only: { canonicalHash, ...(userId !== undefined ? { userId } : {}) } });
}
