// DELETE /api/v1/accounts/{user_id}: forget an account (admin key or admin session).
import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { forgetAccount } from "@/lib/accounts/operations";
import { everyAgentRefusal } from "@/lib/auth/key-reach";

export const dynamic = "force-dynamic";

// The account's runs and conversations may belong to any agent: a key bound to some is refused.
export const DELETE = route(v1.forgetAccount, async ({ params, query, actor, audit }) => {
  const refused = everyAgentRefusal(actor);
  if (refused) throw refused;
  return { forgotten: true, ...(await forgetAccount(db(), { userId: params.user_id, reason: query.reason ?? null }, audit)) };
});
