// Guards around next-auth's callbacks. next-auth puts the message of anything a callback throws
// into the answer (the sign-in answer's `url`), and its default redirect callback throws on a
// callbackUrl it cannot parse (a 5xx); here neither can happen.
import { Unavailable } from "../errors";

/**
 * The callback, with any error it throws replaced by a generic one: a database error's text
 * (which can quote what was sent) is logged by name and code only, never answered.
 */
export function withoutDatabaseDetail<A extends unknown[], R>(fn: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args) => {
    try {
      return await fn(...args);
    } catch (err) {
      const e = err as { name?: string; code?: string };
      console.error(`sign-in failed on an internal error: ${e?.name ?? "unknown"}${e?.code ? ` (${e.code})` : ""}`);
      if (process.env.PROCTOR_DEBUG_ERRORS === "1") console.error(err);
      throw new Unavailable("Unavailable");
    }
  };
}

/** Where next-auth may send the browser: a path or URL on this site, else the site's root. Never throws. */
export async function redirectWithinSite({ url, baseUrl }: { url: string; baseUrl: string }): Promise<string> {
  try {
    const target = new URL(url, baseUrl);
    return target.origin === new URL(baseUrl).origin ? target.href : baseUrl;
  } catch {
    return baseUrl;
  }
}
