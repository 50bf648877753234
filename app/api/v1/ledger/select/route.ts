import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { selectProcedure } from "@/lib/ledger/read";

export const dynamic = "force-dynamic";

// null means "no qualified procedure": the caller uses its baseline.
export const GET = route(v1.selectProcedure, async ({ query }) => {
  const { tenant, agent, environment, ...selection } = query;
  return { procedure: await selectProcedure(db(), { tenant, agent, environment }, selection) };
});
