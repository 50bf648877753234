"use server";
// Settings → Webhooks: add, edit, rotate the secret of (the secret is in that answer only) and
// delete endpoints, send a delivery again, and send a test event.
import { action } from "./action";
import { db } from "../db/client";
import { createWebhookEndpointSchema, redeliverWebhookSchema, updateWebhookEndpointSchema, webhookEndpointIdSchema } from "../webhooks/schemas";
import * as ops from "../webhooks/operations";

export const createWebhookEndpoint = action("webhooks:manage", createWebhookEndpointSchema, (input, { audit }) => ops.createWebhookEndpoint(db(), input, audit));

export const updateWebhookEndpoint = action("webhooks:manage", updateWebhookEndpointSchema, (input, { audit }) => ops.updateWebhookEndpoint(db(), input, audit));

export const rotateWebhookSecret = action("webhooks:manage", webhookEndpointIdSchema, (input, { audit }) => ops.rotateWebhookSecret(db(), input, audit));

export const deleteWebhookEndpoint = action("webhooks:manage", webhookEndpointIdSchema, (input, { audit }) => ops.deleteWebhookEndpoint(db(), input, audit));

export const redeliverWebhook = action("webhooks:manage", redeliverWebhookSchema, (input, { audit }) => ops.redeliverWebhook(db(), input, audit));

export const sendTestWebhookEvent = action("webhooks:manage", webhookEndpointIdSchema, (input, { audit }) => ops.sendTestWebhookEvent(db(), input, audit));
