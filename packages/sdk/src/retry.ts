// Retries of requests the console (or a proxy in front of it) could not take now: 429 and 503
// answers and network errors, with exponential backoff, or after the answer's Retry-After.
// Nothing else is retried: another 4xx will not succeed on resend. Resending is safe for every
// request the SDK makes, even when the first one was stored and only its answer lost: batches
// carry a workflow_id per run (ingestion is idempotent on it), an agent PUT replaces, and
// /context only reads.
import { ProctorError } from "./errors.js";

export type RetryOptions = {
  /** Retries after the first attempt (0: none). */
  maxRetries: number;
  /** The first backoff; each retry doubles it (with jitter). */
  baseDelayMs: number;
  /** No wait is longer, whatever Retry-After says. */
  maxDelayMs: number;
};

export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** Retry-After as milliseconds from `now`: delay-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === "") return null;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  // An HTTP date names its day and month; Date.parse would also take "-1" or "2026".
  const date = /[a-z]/i.test(value) ? Date.parse(value) : NaN;
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** How long to wait before retry number `attempt` (0-based). */
export function retryDelay(attempt: number, retryAfter: string | null, options: RetryOptions, random = Math.random): number {
  const asked = parseRetryAfter(retryAfter);
  if (asked !== null) return Math.min(asked, options.maxDelayMs);
  const backoff = Math.min(options.baseDelayMs * 2 ** attempt, options.maxDelayMs);
  // Half fixed, half random: clients refused together do not come back together.
  return backoff / 2 + (random() * backoff) / 2;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `fetch` that resends a request while the answer is retryable and retries are left. */
export function retryingFetch(fetchImpl: typeof fetch, options: RetryOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    for (let attempt = 0; ; attempt++) {
      let response: Response | null = null;
      let failure: unknown;
      try {
        // A clone per attempt: the original's body stays unread for the next one.
        response = await fetchImpl(request.clone());
      } catch (e) {
        if ((e as Error)?.name === "AbortError") throw e;
        failure = e;
      }
      const retryable = response === null || RETRYABLE_STATUSES.has(response.status);
      if (!retryable || attempt >= options.maxRetries) {
        if (response) return response;
        throw new ProctorError(null, null, failure);
      }
      await response?.body?.cancel();
      await sleep(retryDelay(attempt, response?.headers.get("retry-after") ?? null, options));
    }
  };
}
