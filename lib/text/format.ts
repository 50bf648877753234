// The console's one way to write numbers, counts of things and dates (browser-safe: server
// pages and client components both use it), so "1,120 runs" never sits beside "1120 runs" and
// a date reads the same wherever it appears.

const NUMBER = new Intl.NumberFormat("en");

/** An integer or decimal with thousands separators: 1120 → "1,120". */
export const formatNumber = (n: number): string => NUMBER.format(n);

/**
 * A count and its noun, singular for exactly one: (1, "message") → "1 message", (1120, "run") →
 * "1,120 runs". `plural` for nouns that do not take an "s" ("entries", "children").
 */
export function pluralise(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatNumber(n)} ${n === 1 ? singular : plural}`;
}

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * A moment as "Dec 3, 2026, 1:06 PM": in `timeZone` (an IANA name; the reader's own when
 * omitted), followed by " UTC" when written in UTC so a server-rendered time is never mistaken
 * for local.
 */
export function formatDateTime(at: Date | string, timeZone?: string): string {
  const key = timeZone ?? "";
  let f = dateTimeFormats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short", timeZone });
    dateTimeFormats.set(key, f);
  }
  const text = f.format(typeof at === "string" ? new Date(at) : at);
  return timeZone === "UTC" ? `${text} UTC` : text;
}
