// Where to go after signing in: only a path on this site, never another origin
// ("//evil.example", "/\\evil.example", "https://…" all fall back to the default).
export function safeNextPath(next: string | null | undefined, fallback = "/agents"): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return fallback;
  try {
    const base = "http://proctor.invalid";
    const url = new URL(next, base);
    if (url.origin !== base || url.pathname.startsWith("/login") || url.pathname.startsWith("/api/")) return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}
