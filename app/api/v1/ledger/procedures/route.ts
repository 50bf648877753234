import { json, route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { proposeProcedure } from "@/lib/ledger/operations";

export const dynamic = "force-dynamic";

// 201 for a new procedure, 200 with the current record for an identical re-proposal.
export const POST = route(v1.proposeProcedure, async ({ body }) => {
  const { record, created } = await proposeProcedure(db(), body);
  return json(record, created ? 201 : 200);
});
