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
