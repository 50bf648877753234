// Settings → Webhooks: every endpoint (newest first) with its most recent deliveries.
import "server-only";
import type { Db } from "../../db/prisma";
import { WEBHOOK_EVENTS, type WebhookEventType } from "../events";
import { deliveryView, endpointView, type WebhookDeliveryView, type WebhookEndpointView } from "../schemas";

export const RECENT_DELIVERIES = 20;

export type WebhooksPage = {
  endpoints: (WebhookEndpointView & { deliveries: WebhookDeliveryView[] })[];
  events: { type: WebhookEventType; label: string }[];
};

export async function loadWebhooksPage(db: Db): Promise<WebhooksPage> {
  const rows = await db.webhookEndpoint.findMany({
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    include: { deliveries: { orderBy: [{ createdAt: "desc" }, { id: "asc" }], take: RECENT_DELIVERIES } },
  });
  return {
    endpoints: rows.map((r) => ({ ...endpointView(r), deliveries: r.deliveries.map(deliveryView) })),
    events: WEBHOOK_EVENTS.map((e) => ({ type: e.type, label: e.label })),
  };
}
