import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { distillClass } from "@/lib/learning/operations";

export const dynamic = "force-dynamic";

// "Distill now": the cycle's gates and validation for one class; nothing is bypassed. An empty
// user_id means runs without a user; no user_id, every user scope.
export const POST = route(v1.distillClass, async ({ params, query, audit }) => {
  const only = query.user_id !== undefined ? { userId: query.user_id || null } : {};
  return distillClass(db(), { agentId: params.agent_id, canonicalHash: params.canonical_hash, ...only }, audit);
});
