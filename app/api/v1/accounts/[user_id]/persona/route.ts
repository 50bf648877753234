// GET /api/v1/accounts/{user_id}/persona?agent_id=…: the account's approved persona for
// request-local use, with a keyed-hash reference. Never a pending proposal.
import { z } from "zod";
import { route } from "@/lib/api/handler";
import { problems } from "@/lib/api/problem";
import { db } from "@/lib/db/client";
import { pathId } from "@/lib/api/v1/schemas";
import { approvedPersona } from "@/lib/persona/reference";

export const dynamic = "force-dynamic";

export const GET = route(
  { auth: "apiKey", scope: "ingest", params: z.object({ user_id: pathId }), query: z.object({ agent_id: pathId.optional() }) },
  async ({ params, query }) => {
    const persona = await approvedPersona(db(), params.user_id, query.agent_id);
    if (!persona) throw problems.notFound(`An approved persona for account '${params.user_id}'`);
    return persona;
  },
);
