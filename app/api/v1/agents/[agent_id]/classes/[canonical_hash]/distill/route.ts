import { route } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { classParams, distillQuery } from "@/lib/api/v1/learning";
import { distillClass } from "@/lib/learning/operations";

export const dynamic = "force-dynamic";

// "Distill now": the cycle's gates and validation for one class; nothing is bypassed.
export const POST = route({ auth: "any", scope: "admin", params: classParams, query: distillQuery }, async ({ params, query, audit }) =>
  distillClass(
    db(),
    { agentId: params.agent_id, canonicalHash: params.canonical_hash, ...(query.user_id !== undefined ? { userId: query.user_id || null } : {}) },
    audit,
  ),
);
