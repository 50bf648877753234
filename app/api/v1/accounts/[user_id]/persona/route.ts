// GET /api/v1/accounts/{user_id}/persona?agent_id=…: the account's approved persona for
// request-local use, with a keyed-hash reference. Never a pending proposal.
import { route } from "@/lib/api/handler";
import { problems } from "@/lib/api/problem";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { approvedPersona } from "@/lib/persona/reference";

export const dynamic = "force-dynamic";

export const GET = route(v1.getApprovedPersona,
  async ({ params, query, reaches }) => {
    // Without agent_id, a key bound to agents still gets only a persona of one of them.
    const persona = await approvedPersona(db(), params.user_id, query.agent_id, reaches);
    if (!persona) throw problems.notFound(`An approved persona for account '${params.user_id}'`);
    return persona;
  },
);
