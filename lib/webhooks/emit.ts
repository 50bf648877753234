// Announces an event from TypeScript, in the caller's transaction (the outbox): the same
// webhook_enqueue() the SQL triggers call, so there is one place deliveries are written.
import type { Tx } from "../db/prisma";
import type { WebhookEventType } from "./events";

/** The kind of the job that delivers one webhook message (also named in the webhooks migration). */
export const WEBHOOK_DELIVERY_JOB = "webhook.deliver";

export async function emitWebhookEvent(tx: Tx, type: WebhookEventType, data: Record<string, string | number | boolean | null>): Promise<void> {
  await tx.$executeRaw`SELECT webhook_enqueue(${type}, ${JSON.stringify(data)}::jsonb)`;
}
