// Cross-site writes are refused: a browser always sends Origin (or Referer) on them, and a
// request without either carries no credentials a victim did not hand over.
export type CrossOrigin = "malformed" | "foreign";

/** Why a write with these headers comes from another site, or null when it does not. */
export function crossOrigin(headers: Pick<Headers, "get">): CrossOrigin | null {
  const source = headers.get("origin") ?? headers.get("referer");
  if (!source) return null;
  const host = headers.get("x-forwarded-host") ?? headers.get("host");
  let sourceHost: string;
  try {
    sourceHost = new URL(source).host;
  } catch {
    return "malformed";
  }
  return host && sourceHost === host ? null : "foreign";
}
