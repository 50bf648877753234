import { route } from "@/lib/api/handler";
import { problems } from "@/lib/api/problem";
import { db } from "@/lib/db/client";
import { caseParams, scopeQuery } from "@/lib/api/v1/ledger";
import { getEvaluation } from "@/lib/ledger/read";

export const dynamic = "force-dynamic";

export const GET = route({ auth: "any", role: "ADMIN", query: scopeQuery, params: caseParams }, async ({ query, params }) => {
  const receipt = await getEvaluation(db(), query, params.id, params.case_id);
  if (!receipt) throw problems.notFound("The evaluation (in this scope)");
  return receipt;
});
