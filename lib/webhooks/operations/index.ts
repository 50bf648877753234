// Every state change of webhook endpoints, by name. Each takes (db, input, by) and commits
// with its audit row; deliveries themselves are written by ../emit and the SQL triggers.
export { createWebhookEndpoint, type CreateWebhookEndpointInput } from "./create-webhook-endpoint";
export { updateWebhookEndpoint, type UpdateWebhookEndpointInput } from "./update-webhook-endpoint";
export { deleteWebhookEndpoint, type DeleteWebhookEndpointInput } from "./delete-webhook-endpoint";
export { rotateWebhookSecret, type RotateWebhookSecretInput } from "./rotate-webhook-secret";
export { redeliverWebhook, type RedeliverWebhookInput } from "./redeliver-webhook";
export { sendTestWebhookEvent, type SendTestWebhookEventInput } from "./send-test-event";
