// Server-side access checks for console pages and layouts. The middleware only screens out
// anonymous requests; every page calls one of these again, because roles and deactivation
// are read from the database on each request.
import "server-only";
import { cache } from "react";
import { forbidden, redirect } from "next/navigation";
import type { Actor } from "./actor";
import { sessionActor } from "./session";

export type ConsoleUser = Extract<Actor, { type: "user" }>;

/** One database read per request however many components ask. */
export const currentUser = cache(sessionActor);

/**
 * The signed-in console user, or a redirect to the login page (which comes back to `next`).
 * With `role: "ADMIN"` a viewer gets the 403 page.
 */
export async function requireUser(next: string, role: "ADMIN" | "VIEWER" = "VIEWER"): Promise<ConsoleUser> {
  const user = await currentUser();
  if (!user) redirect(`/login?next=${encodeURIComponent(next)}`);
  if (role === "ADMIN" && user.role !== "ADMIN") forbidden();
  return user;
}

export function requireAdmin(next: string): Promise<ConsoleUser> {
  return requireUser(next, "ADMIN");
}
