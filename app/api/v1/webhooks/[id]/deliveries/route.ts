// GET /api/v1/webhooks/{id}/deliveries: an endpoint's deliveries, newest first (lib/webhooks).
import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { listWebhookDeliveries } from "@/lib/webhooks/reads";

export const dynamic = "force-dynamic";

export const GET = route(v1.listWebhookDeliveries, async ({ params, query }) => ({ deliveries: await listWebhookDeliveries(db(), params.id, query.limit) }));
