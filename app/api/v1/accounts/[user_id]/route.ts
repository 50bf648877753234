// DELETE /api/v1/accounts/{user_id}: forget an account (admin key or admin session). Its runs and
// conversations may belong to any agent, so a key bound to some is refused (403): the
// declaration's `reach: everyAgent`, checked by route().
import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { forgetAccount } from "@/lib/accounts/operations";

export const dynamic = "force-dynamic";

export const DELETE = route(v1.forgetAccount, async ({ params, query, audit }) => ({
  forgotten: true,
  ...(await forgetAccount(db(), { userId: params.user_id, reason: query.reason ?? null }, audit)),
}));
