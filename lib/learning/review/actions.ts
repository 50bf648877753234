// Distill one class and run a promotion cycle: the engine's locked cycle ("Distill now" is the
// cycle restricted to one class, gates and validation included). The agent API's routes and
// the console's actions call these with the same input. The cycle writes its audit row with
// the report; a cycle already running for the agent is a Conflict (lib/learning/errors.ts).
import { z } from "zod";
import type { Db } from "../../db/prisma";
import type { AuditContext } from "../../audit/record";
import { agentIdParams, classParams } from "../schemas";
import { runLockedPromotionCycle } from "../engine";

export const promotionCycleInput = agentIdParams.strict();

export const distillInput = classParams
  .extend({
    /** The class's user scope: null for runs without a user; omitted for every user scope. */
    user_id: z.string().max(256).nullable().optional(),
  })
  .strict();

export async function distillClass(db: Db, input: z.output<typeof distillInput>, audit: AuditContext) {
  const only = { canonicalHash: input.canonical_hash, ...(input.user_id !== undefined ? { userId: input.user_id } : {}) };
  return runLockedPromotionCycle(db, input.agent_id, { trigger: "distill", audit, only });
}

export async function runPromotionCycle(db: Db, input: z.output<typeof promotionCycleInput>, audit: AuditContext) {
  return runLockedPromotionCycle(db, input.agent_id, { trigger: "manual", audit });
}
