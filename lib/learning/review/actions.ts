// Distill one class and run a promotion cycle: the engine's locked cycle ("Distill now" is the
// cycle restricted to one class, gates and validation included). The agent API's routes and
// the console's actions call these with the same input. The cycle writes its audit row with
// the report.
import { z } from "zod";
import type { Db } from "../../db/prisma";
import type { AuditContext } from "../../audit/record";
import { Conflict } from "../../errors";
import { agentIdParams, classParams } from "../api-schemas";
import { CycleBusyError } from "../cycle-lock";
import { runLockedPromotionCycle } from "../engine";

export const distillInput = classParams
  .extend({
    /** The class's user scope: null for runs without a user; omitted for every user scope. */
    user_id: z.string().max(256).nullable().optional(),
  })
  .strict();

export const promotionCycleInput = agentIdParams.strict();

async function locked(fn: () => ReturnType<typeof runLockedPromotionCycle>) {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof CycleBusyError) throw new Conflict("A promotion cycle is already running for this agent; try again when it has finished.");
    throw e;
  }
}

export async function distillClass(db: Db, input: z.output<typeof distillInput>, audit: AuditContext) {
  const only = { canonicalHash: input.canonical_hash, ...(input.user_id !== undefined ? { userId: input.user_id } : {}) };
  return locked(() => runLockedPromotionCycle(db, input.agent_id, { trigger: "distill", audit, only }));
}

export async function runPromotionCycle(db: Db, input: z.output<typeof promotionCycleInput>, audit: AuditContext) {
  return locked(() => runLockedPromotionCycle(db, input.agent_id, { trigger: "manual", audit }));
}
