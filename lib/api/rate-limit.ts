// A per-process token bucket. Advisory protection against runaway clients; nothing
// authoritative lives here, so several web processes each enforce their own share.
type Bucket = { tokens: number; updated: number };
const buckets = new Map<string, Bucket>();

export function takeToken(key: string, perSecond: number, burst: number, now = Date.now()): number {
  const b = buckets.get(key) ?? { tokens: burst, updated: now };
  b.tokens = Math.min(burst, b.tokens + ((now - b.updated) / 1000) * perSecond);
  b.updated = now;
  if (b.tokens < 1) {
    buckets.set(key, b);
    return Math.ceil((1 - b.tokens) / perSecond);
  }
  b.tokens -= 1;
  buckets.set(key, b);
  if (buckets.size > 10_000) buckets.delete(buckets.keys().next().value as string);
  return 0;
}
