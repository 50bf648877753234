// Cross-site writes are refused: a browser always sends Origin (or Referer) on them, so a
// browser write without either is refused too (callers with an API key send neither and are
// exempt). X-Forwarded-Host names the public host only when PROCTOR_TRUST_PROXY=1 says a proxy
// in front sets it; otherwise any client could claim the host its Origin names.
export type CrossOrigin = "malformed" | "foreign" | "missing";

/** What the caller is told, for each reason. */
export const ORIGIN_REFUSAL: Record<CrossOrigin, string> = {
  malformed: "The request's origin is malformed.",
  foreign: "Cross-origin requests may not change anything.",
  missing: "A change from the browser must carry an Origin or Referer header.",
};

/** Why a write with these headers comes from another site (or from nowhere), or null when it does not. */
export function crossOrigin(headers: Pick<Headers, "get">, opts: { requireSource: boolean } = { requireSource: true }): CrossOrigin | null {
  const source = headers.get("origin") ?? headers.get("referer");
  if (!source) return opts.requireSource ? "missing" : null;
  const forwarded = process.env.PROCTOR_TRUST_PROXY === "1" ? headers.get("x-forwarded-host") : null;
  const host = forwarded ?? headers.get("host");
  let sourceHost: string;
  try {
    sourceHost = new URL(source).host;
  } catch {
    return "malformed";
  }
  return host && sourceHost === host ? null : "foreign";
}
