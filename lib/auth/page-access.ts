// Server-side access checks for console pages and layouts. The proxy only screens out
// anonymous requests; every page calls requireScope again, because roles and deactivation
// are read from the database on each request.
import "server-only";
import { cache } from "react";
import { forbidden, redirect } from "next/navigation";
import type { Actor } from "./actor";
import { denial, type Scope } from "./access";
import { actorOf, sessionState } from "./session";

export type ConsoleUser = Extract<Actor, { type: "user" }>;

/** One database read per request however many components ask. */
export const currentSession = cache(sessionState);
export const currentUser = cache(async () => actorOf(await currentSession()));

/**
 * The signed-in console user whose role grants `scope`, or a redirect to the login page (which
 * comes back to `next`), or the 403 page. Read-only mode does not hide pages: what a page may
 * change it asks with `can`.
 */
export async function requireScope(next: string, scope: Scope): Promise<ConsoleUser> {
  const user = await currentUser();
  if (!user) {
    // An ended session is sent to sign in with the reason, which the sign-in page shows.
    const session = await currentSession();
    const reason = session && !session.ok && session.reason ? `&reason=${session.reason}` : "";
    redirect(`/login?next=${encodeURIComponent(next)}${reason}`);
  }
  if (denial(user, scope) === "scope") forbidden();
  return user;
}
