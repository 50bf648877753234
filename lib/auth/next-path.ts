// Where to go after signing in: only a path on this site, never another origin. The candidate
// is resolved against the app's origin, and so is the path handed back: "/.//host/x" resolves
// on this site but normalizes to "//host/x", which a browser reads as another host. Anything
// that does not stay on this origin both times falls back.
const APP = "http://proctor.invalid";

const onThisSite = (path: string) => new URL(path, APP).origin === APP;

export function safeNextPath(next: string | null | undefined, fallback = "/"): string {
  if (!next || !next.startsWith("/")) return fallback;
  try {
    const url = new URL(next, APP);
    if (url.origin !== APP) return fallback;
    const path = url.pathname + url.search + url.hash;
    if (!onThisSite(path) || url.pathname.startsWith("/login") || url.pathname.startsWith("/api/")) return fallback;
    return path;
  } catch {
    return fallback;
  }
}
