import { route } from "@/lib/api/handler";
import { problems } from "@/lib/api/problem";
import { db } from "@/lib/db/client";
import { procedureParams, scopeQuery } from "@/lib/api/v1/ledger";
import { getProcedure } from "@/lib/ledger/read";

export const dynamic = "force-dynamic";

// Console sessions need ADMIN: viewers do not see the ledger.
export const GET = route({ auth: "any", role: "ADMIN", query: scopeQuery, params: procedureParams }, async ({ query, params }) => {
  const record = await getProcedure(db(), query, params.id);
  if (!record) throw problems.notFound("The procedure (in this scope)");
  return record;
});
