// The console's promotion actions: the engine's locked cycle ("Distill now" is the cycle
// restricted to one class, gates and validation included), answered with the report and the
// names of the skills it touched. The cycle writes its audit row with the report.
import { z } from "zod";
import type { Db } from "../../db/prisma";
import type { AuditContext } from "../../audit/record";
import { pathId } from "../../ids";
import { runLockedPromotionCycle } from "../engine";
import { withSkillNames, type ReportWithSkills } from "./reports";

export const distillBody = z
  .object({
    canonical_hash: pathId,
    /** The class's user scope; null for runs without a user. */
    user_id: z.string().max(256).nullable(),
  })
  .strict();

export const cycleBody = z.object({}).strict();

export async function distillClass(db: Db, agentId: string, body: z.output<typeof distillBody>, audit: AuditContext): Promise<ReportWithSkills> {
  const report = await runLockedPromotionCycle(db, agentId, {
    trigger: "distill",
    audit,
    only: { canonicalHash: body.canonical_hash, userId: body.user_id },
  });
  return withSkillNames(db, report);
}

export async function runManualCycle(db: Db, agentId: string, audit: AuditContext): Promise<ReportWithSkills> {
  return withSkillNames(db, await runLockedPromotionCycle(db, agentId, { trigger: "manual", audit }));
}
