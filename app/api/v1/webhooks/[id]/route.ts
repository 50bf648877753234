// PUT/DELETE /api/v1/webhooks/{id}: replace or delete a webhook endpoint (lib/webhooks).
import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { deleteWebhookEndpoint, updateWebhookEndpoint } from "@/lib/webhooks/operations";

export const dynamic = "force-dynamic";

export const PUT = route(v1.updateWebhookEndpoint, async ({ params, body, audit }) => updateWebhookEndpoint(db(), { id: params.id, ...body }, audit));

export const DELETE = route(v1.deleteWebhookEndpoint, async ({ params, audit }) => ({ ...(await deleteWebhookEndpoint(db(), { id: params.id }, audit)), deleted: true as const }));
