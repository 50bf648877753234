// GET/POST /api/v1/webhooks: list webhook endpoints, add one (admin keys and sessions; the
// console's operations, lib/webhooks).
import { json, route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { createWebhookEndpoint } from "@/lib/webhooks/operations";
import { listWebhookEndpoints } from "@/lib/webhooks/reads";

export const dynamic = "force-dynamic";

export const GET = route(v1.listWebhookEndpoints, async () => ({ endpoints: await listWebhookEndpoints(db()) }));

export const POST = route(v1.createWebhookEndpoint, async ({ body, audit }) => json(await createWebhookEndpoint(db(), body, audit), 201));
