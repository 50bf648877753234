import { route } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { selectQuery } from "@/lib/api/v1/ledger";
import { selectProcedure } from "@/lib/ledger/read";

export const dynamic = "force-dynamic";

// null means "no qualified procedure": the caller uses its baseline.
export const GET = route({ auth: "any", role: "ADMIN", query: selectQuery }, async ({ query }) => {
  const { tenant, agent, environment, ...selection } = query;
  return { procedure: await selectProcedure(db(), { tenant, agent, environment }, selection) };
});
