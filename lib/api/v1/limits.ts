// Request limits of the agent API, part of its published contract: a body over its route's limit
// is refused unread with 413 payload_too_large (listed per operation in GET /api/v1/openapi.json).
export const SINGLE_BODY_BYTES = 1024 * 1024;
export const BATCH_BODY_BYTES = 8 * 1024 * 1024;
/**
 * What the skills import reads of a body: past the archive cap (10 MB, lib/learning/skills-io/
 * archive.ts) an archive is refused as bad input (400), past this the body is not read (413).
 */
export const SKILL_UPLOAD_BYTES = 16 * 1024 * 1024;
/**
 * Requests per second per key on the ingestion routes: one key often serves a whole fleet of
 * agent workers, so the wrapper's default (200/s) would throttle normal single-run traffic.
 */
export const INGEST_RATE_PER_KEY = 5000;
