// How far ahead of its receipt the time of a live run, message or span may be: an agent's clock
// may run a little ahead of Proctor's, but a run dated in the future would stay "recent" (class
// recency, the agent's last run, retention, list order) until that date. Past times are always
// accepted: imports, backfills and fixtures keep theirs.
import { z } from "zod";

/** Five minutes: more than ordinary clock skew between an agent and Proctor. */
export const MAX_AHEAD_OF_RECEIPT_MS = 5 * 60_000;

export const AHEAD_OF_RECEIPT = "must not be more than 5 minutes ahead of the time it is received";

/** Whether a time (epoch ms) is at most MAX_AHEAD_OF_RECEIPT_MS after `receivedAt`. */
export const withinReceipt = (ms: number, receivedAt: number = Date.now()) => ms <= receivedAt + MAX_AHEAD_OF_RECEIPT_MS;

/** An ISO-8601 date-time with an offset, refused when it is too far ahead of now (the request's receipt). */
export const liveDateTime = z.iso.datetime({ offset: true }).refine((v) => withinReceipt(Date.parse(v)), { error: AHEAD_OF_RECEIPT });
