// Session and CSRF cookies are `Secure` (and `__Secure-`/`__Host-` prefixed) exactly when the
// console's public URL (NEXTAUTH_URL) is https. next-auth's route, getServerSession and the
// proxy must agree on it, or they would look for differently named cookies.
export function secureCookies(env: { NEXTAUTH_URL?: string } = process.env): boolean {
  return (env.NEXTAUTH_URL ?? "").trim().toLowerCase().startsWith("https://");
}
