// Request limits of the agent API (api.md Conventions).
export const SINGLE_BODY_BYTES = 1024 * 1024;
export const BATCH_BODY_BYTES = 8 * 1024 * 1024;
/**
 * Requests per second per key on the ingestion routes: one key often serves a whole fleet of
 * agent workers, so the wrapper's default (200/s) would throttle normal single-run traffic.
 */
export const INGEST_RATE_PER_KEY = 5000;
