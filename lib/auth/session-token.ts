// The session JWT in a request's cookies, decoded under this instance's secret (next-auth's own
// reader, so chunked cookies and the Secure name agree with its route). Whether the session
// still counts is ./sessions.ts's to say.
import { getToken, type JWT } from "next-auth/jwt";
import { secureCookies } from "./cookies";

type Cookies = Map<string, string> | { getAll(): { name: string; value: string }[] };

/** The session cookie's name, chunks being `<name>.0`, `<name>.1`…. */
export const sessionCookieName = () => `${secureCookies() ? "__Secure-" : ""}next-auth.session-token`;

export function sessionToken(cookies: Cookies): Promise<JWT | null> {
  return getToken({ req: { cookies, headers: {} } as never, secret: process.env.NEXTAUTH_SECRET, secureCookie: secureCookies() });
}
