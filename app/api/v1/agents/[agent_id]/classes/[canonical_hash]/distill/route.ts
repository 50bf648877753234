import { route } from "@/lib/api/handler";
import { problems } from "@/lib/api/problem";
import { db } from "@/lib/db/client";
import { classParams, distillQuery } from "@/lib/learning/api-schemas";
import { CycleBusyError } from "@/lib/learning/cycle-lock";
import { runLockedPromotionCycle } from "@/lib/learning/engine";

export const dynamic = "force-dynamic";

// "Distill now": the cycle's gates and validation for one class; nothing is bypassed.
export const POST = route({ auth: "any", scope: "admin", params: classParams, query: distillQuery }, async ({ params, query, audit }) => {
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
