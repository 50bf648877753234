import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { problems } from "@/lib/api/problem";
import { db } from "@/lib/db/client";
import { withLedgerProblems } from "@/lib/ledger/http";
import { getEvaluation } from "@/lib/ledger/read";

export const dynamic = "force-dynamic";

export const GET = route(v1.getEvaluation, async ({ query, params }) => {
  const receipt = await withLedgerProblems(() => getEvaluation(db(), query, params.id, params.case_id));
  if (!receipt) throw problems.notFound("The evaluation (in this scope)");
  return receipt;
});
