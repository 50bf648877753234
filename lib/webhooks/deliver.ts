// One attempt at one webhook delivery, run by the worker (./jobs.ts) from the durable job
// queue: POST the JSON body signed per Standard Webhooks (the `standardwebhooks` package signs;
// `webhook-id` is the delivery's id, the same on every attempt) to an address the URL policy
// allows (./url-policy.ts), then record the attempt and, unless it was the last of its round,
// queue the next one with exponential backoff. A 2xx answer delivers; anything else (another
// status, a redirect, a timeout, no connection) is a failed attempt.
// The delivery schedules its own retries instead of throwing to the job runtime, so its backoff
// and attempt limit are its own and a delivery job never ends up dead (no job.dead loop).
import { Webhook } from "standardwebhooks";
import type { Db } from "../db/prisma";
import { enqueueJob } from "../jobs/queue";
import { WEBHOOK_DELIVERY_JOB } from "./emit";
import { decryptSecret } from "./secret";
import { postPinned } from "./send";
import { resolveWebhookTarget, TARGET_NOT_ALLOWED, targetPolicyFromEnv } from "./url-policy";

export type WebhookDeliveryOptions = { maxAttempts: number; backoffMs: number; timeoutMs: number };

/** PROCTOR_WEBHOOK_MAX_ATTEMPTS (5), PROCTOR_WEBHOOK_BACKOFF_MS (30 s, doubled per retry), PROCTOR_WEBHOOK_TIMEOUT_MS (10 s). */
function webhookOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): WebhookDeliveryOptions {
  const int = (v: string | undefined, fallback: number) => (v && /^[1-9]\d{0,8}$/.test(v) ? Number(v) : fallback);
  return {
    maxAttempts: int(env.PROCTOR_WEBHOOK_MAX_ATTEMPTS, 5),
    backoffMs: int(env.PROCTOR_WEBHOOK_BACKOFF_MS, 30_000),
    timeoutMs: int(env.PROCTOR_WEBHOOK_TIMEOUT_MS, 10_000),
  };
}

type Attempt = { responseCode: number | null; error: string | null; final: boolean };

/** Shown for every failure to get an answer: which one it was (refused, reset, timed out) would make deliveries a port probe. */
export const NO_ANSWER = "no answer from the receiver";

/**
 * The receiver's answer code, or why there was none. Never the response body, never the
 * network's detail. A URL the policy refuses now (the setting changed, or the name resolves
 * elsewhere than when it was saved) is not sent and not retried.
 */
async function post(url: string, id: string, secret: string, body: string, timeoutMs: number): Promise<Omit<Attempt, "final"> & { refused?: true }> {
  const target = await resolveWebhookTarget(url, targetPolicyFromEnv());
  if (!target.ok) return { responseCode: null, error: target.reason, refused: target.reason === TARGET_NOT_ALLOWED || undefined };
  const now = new Date();
  const headers = {
    "content-type": "application/json",
    "user-agent": "Proctor-Webhooks/1",
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign(id, now, body),
  };
  try {
    const status = await postPinned(url, target.addresses, headers, body, timeoutMs);
    return { responseCode: status, error: status >= 200 && status < 300 ? null : `HTTP ${status}` };
  } catch {
    return { responseCode: null, error: NO_ANSWER };
  }
}

export async function attemptDelivery(database: Db, deliveryId: string, opts: WebhookDeliveryOptions = webhookOptionsFromEnv()): Promise<void> {
  const d = await database.webhookDelivery.findUnique({ where: { id: deliveryId }, include: { endpoint: true } });
  // Deleted with its endpoint, or already settled (a job run twice after a crash).
  if (!d || d.status !== "PENDING") return;

  let attempt: Attempt;
  if (!d.endpoint.enabled) {
    attempt = { responseCode: null, error: "endpoint disabled", final: true };
  } else {
    let secret: string | null = null;
    try {
      secret = await decryptSecret(database, d.endpointId, d.endpoint.secretCiphertext);
    } catch (e) {
      attempt = { responseCode: null, error: (e as Error).message, final: true };
    }
    if (secret !== null) {
      const sent = await post(d.endpoint.url, d.id, secret, JSON.stringify(d.payload), opts.timeoutMs);
      const { refused, ...result } = sent;
      attempt = { ...result, final: Boolean(refused) || sent.error === null || d.roundAttempts + 1 >= opts.maxAttempts };
    }
  }
  await recordAttempt(database, d, attempt!, opts);
}

async function recordAttempt(database: Db, d: { id: string; attempts: number; roundAttempts: number }, a: Attempt, opts: WebhookDeliveryOptions) {
  const at = new Date();
  const status = !a.final ? "PENDING" : a.error === null ? "DELIVERED" : "FAILED";
  const entry = JSON.stringify([{ at: at.toISOString(), response_code: a.responseCode, error: a.error }]);
  await database.$transaction(async (tx) => {
    // Conditional on the attempt count read: a concurrent run of the same attempt records nothing twice.
    const changed = await tx.$executeRaw`
      UPDATE webhook_deliveries SET attempts = attempts + 1, round_attempts = round_attempts + 1, status = ${status}::"WebhookDeliveryStatus",
        response_code = ${a.responseCode}, last_error = ${a.error}, attempt_log = attempt_log || ${entry}::jsonb,
        last_attempt_at = ${at}, delivered_at = ${status === "DELIVERED" ? at : null}
      WHERE id = ${d.id} AND status = 'PENDING' AND attempts = ${d.attempts}`;
    if (changed === 0 || a.final) return;
    const backoff = opts.backoffMs * 2 ** d.roundAttempts;
    await enqueueJob(tx, { kind: WEBHOOK_DELIVERY_JOB, payload: { delivery_id: d.id }, runAfter: new Date(at.getTime() + backoff) });
  });
}
