// The console's webhook forms and the endpoint and delivery views.
import { z } from "zod";
import type { WebhookDelivery, WebhookEndpoint } from "../db/generated/client";
import { pathId } from "../path-id";
import { isWebhookEventType, webhookEventType, type WebhookEventType } from "./events";

/** http(s) only: anything else (file:, javascript:, ftp:…) is refused before anything is written. */
export const webhookUrl = z
  .string()
  .trim()
  .max(2000)
  .refine((s) => URL.canParse(s) && ["http:", "https:"].includes(new URL(s).protocol), { error: "the URL must be an http:// or https:// address" });

const endpointFields = {
  url: webhookUrl,
  description: z.string().trim().max(500).default(""),
  events: z.array(webhookEventType).min(1, { error: "choose at least one event" }).transform((e) => [...new Set(e)]),
  enabled: z.boolean().default(true),
};

export const createWebhookEndpointSchema = z.strictObject(endpointFields);
export const updateWebhookEndpointSchema = z.strictObject({ id: pathId, ...endpointFields });
export const webhookEndpointIdSchema = z.strictObject({ id: pathId });
export const redeliverWebhookSchema = z.strictObject({ delivery_id: pathId });

// The admin API's wire shapes (lib/api/v1/contract.ts): an endpoint's fields as the console's
// form takes them, its id in the path.
export const webhookEndpointBody = createWebhookEndpointSchema;
export const webhookEndpointParams = z.object({ id: pathId });
export const webhookDeliveriesQuery = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) });

const iso = z.iso.datetime({ offset: true });
const endpointResponse = z.strictObject({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(webhookEventType),
  enabled: z.boolean(),
  created_at: iso,
  updated_at: iso,
});
const deliveryResponse = z.strictObject({
  id: z.string(),
  event: z.string(),
  status: z.enum(["pending", "delivered", "failed"]),
  attempts: z.number().int().describe("requests made, every redelivery included"),
  response_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  created_at: iso,
  last_attempt_at: iso.nullable(),
  delivered_at: iso.nullable(),
});
const secret = z.string().describe("the whsec_ signing secret: shown in this answer only");
export const webhookEndpointResponse = endpointResponse;
export const webhookCreatedResponse = z.strictObject({ endpoint: endpointResponse, secret });
export const webhookEndpointListResponse = z.strictObject({ endpoints: z.array(endpointResponse) });
export const webhookSecretResponse = z.strictObject({ id: z.string(), secret });
export const webhookDeletedResponse = z.strictObject({ id: z.string(), deleted: z.literal(true) });
export const webhookDeliveryListResponse = z.strictObject({ deliveries: z.array(deliveryResponse) });

/** The URL as audit rows name it: no credentials, query or fragment (they may carry tokens). */
export const auditUrl = (url: string) => {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
};

export type WebhookDeliveryView = {
  id: string;
  event: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  response_code: number | null;
  last_error: string | null;
  created_at: string;
  last_attempt_at: string | null;
  delivered_at: string | null;
};

export type WebhookEndpointView = {
  id: string;
  url: string;
  description: string;
  events: WebhookEventType[];
  enabled: boolean;
  created_at: string;
  updated_at: string;
};

export const endpointView = (e: WebhookEndpoint): WebhookEndpointView => ({
  id: e.id,
  url: e.url,
  description: e.description,
  events: e.events.filter(isWebhookEventType),
  enabled: e.enabled,
  created_at: e.createdAt.toISOString(),
  updated_at: e.updatedAt.toISOString(),
});

export const deliveryView = (d: WebhookDelivery): WebhookDeliveryView => ({
  id: d.id,
  event: d.eventType,
  status: d.status.toLowerCase() as WebhookDeliveryView["status"],
  attempts: d.attempts,
  response_code: d.responseCode,
  last_error: d.lastError,
  created_at: d.createdAt.toISOString(),
  last_attempt_at: d.lastAttemptAt?.toISOString() ?? null,
  delivered_at: d.deliveredAt?.toISOString() ?? null,
});
