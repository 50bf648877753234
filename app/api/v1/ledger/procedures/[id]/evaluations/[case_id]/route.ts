import { route } from "@/lib/api/handler";
import { problems } from "@/lib/api/problem";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { getEvaluation } from "@/lib/ledger/read";

export const dynamic = "force-dynamic";

export const GET = route(v1.getEvaluation, async ({ query, params }) => {
  const receipt = await getEvaluation(db(), query, params.id, params.case_id);
  if (!receipt) throw problems.notFound("The evaluation (in this scope)");
  return receipt;
});
