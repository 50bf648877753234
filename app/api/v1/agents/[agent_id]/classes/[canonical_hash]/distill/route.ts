import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { problems } from "@/lib/api/problem";
import { db } from "@/lib/db/client";
import { CycleBusyError } from "@/lib/learning/cycle-lock";
import { runLockedPromotionCycle } from "@/lib/learning/engine";

export const dynamic = "force-dynamic";

// "Distill now": the cycle's gates and validation for one class; nothing is bypassed.
export const POST = route(v1.distillClass, async ({ params, query, audit }) => {
  try {
    return await runLockedPromotionCycle(db(), params.agent_id, {
      trigger: "distill",
      audit,
      only: { canonicalHash: params.canonical_hash, ...(query.user_id !== undefined ? { userId: query.user_id || null } : {}) },
    });
  } catch (e) {
    if (e instanceof CycleBusyError) throw problems.conflict("A promotion cycle is already running for this agent.");
    throw e;
  }
});
