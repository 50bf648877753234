import { route } from "@/lib/api/handler";
import { problems } from "@/lib/api/problem";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { getProcedure } from "@/lib/ledger/read";

export const dynamic = "force-dynamic";

// Console sessions need ADMIN: viewers do not see the ledger.
export const GET = route(v1.getProcedure, async ({ query, params }) => {
  const record = await getProcedure(db(), query, params.id);
  if (!record) throw problems.notFound("The procedure (in this scope)");
  return record;
});
