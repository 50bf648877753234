import { json, route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { recordEvaluation } from "@/lib/ledger/operations";

export const dynamic = "force-dynamic";

// 201 for a new case, 200 with the original receipt for an identical re-delivery.
export const POST = route(v1.recordEvaluation, async ({ body, params }) => {
  const { scope, ...evaluation } = body;
  const result = await recordEvaluation(db(), scope, params.id, evaluation);
  return json(result, result.duplicate ? 200 : 201);
});
