import { json, route } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { evaluationBody, procedureParams } from "@/lib/api/v1/ledger";
import { recordEvaluation } from "@/lib/ledger/operations";

export const dynamic = "force-dynamic";

// 201 for a new case, 200 with the original receipt for an identical re-delivery.
export const POST = route(
  { auth: "apiKey", scope: "ingest", body: evaluationBody, params: procedureParams },
  async ({ body, params }) => {
    const { scope, ...evaluation } = body;
    const result = await recordEvaluation(db(), scope, params.id, evaluation);
    return json(result, result.duplicate ? 200 : 201);
  },
);
