// POST /api/v1/webhooks/{id}/rotate-secret: a new signing secret, in the answer only (lib/webhooks).
import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { rotateWebhookSecret } from "@/lib/webhooks/operations";

export const dynamic = "force-dynamic";

export const POST = route(v1.rotateWebhookSecret, async ({ params, audit }) => rotateWebhookSecret(db(), { id: params.id }, audit));
