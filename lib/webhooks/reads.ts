// Reads of webhook endpoints and their deliveries for the admin API (the console's page has its
// own loader, ./pages/webhooks.ts).
import type { Db } from "../db/prisma";
import { NotFound } from "../errors";
import { deliveryView, endpointView, type WebhookDeliveryView, type WebhookEndpointView } from "./schemas";

/** Endpoints listed at most: they are added by hand, a handful per instance. */
export const MAX_LISTED_ENDPOINTS = 500;

export async function listWebhookEndpoints(db: Db): Promise<WebhookEndpointView[]> {
  const rows = await db.webhookEndpoint.findMany({ orderBy: [{ createdAt: "desc" }, { id: "asc" }], take: MAX_LISTED_ENDPOINTS });
  return rows.map(endpointView);
}

/** An endpoint's deliveries, newest first, at most `limit`. */
export async function listWebhookDeliveries(db: Db, endpointId: string, limit: number): Promise<WebhookDeliveryView[]> {
  const endpoint = await db.webhookEndpoint.findUnique({ where: { id: endpointId }, select: { id: true } });
  if (!endpoint) throw new NotFound("The webhook endpoint");
  const rows = await db.webhookDelivery.findMany({ where: { endpointId }, orderBy: [{ createdAt: "desc" }, { id: "asc" }], take: limit });
  return rows.map(deliveryView);
}
