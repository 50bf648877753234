// The console user behind a request: the session JWT's row (./sessions.ts) and its user, read
// from the database on every request so that ended sessions, deactivation and role changes take
// effect at once. Pages, server actions and console routes all ask here.
import { cookies } from "next/headers";
import { db } from "../db/client";
import type { Actor } from "./actor";
import { checkSession, type SessionCheck } from "./sessions";
import { sessionToken } from "./session-token";

/** This request's session: current (with its user), ended (with why), or none. */
export async function sessionState(): Promise<SessionCheck | null> {
  const token = await sessionToken(await cookies());
  return token ? checkSession(db(), token.sid) : null;
}

export async function sessionActor(): Promise<Extract<Actor, { type: "user" }> | null> {
  return actorOf(await sessionState());
}

export function actorOf(state: SessionCheck | null): Extract<Actor, { type: "user" }> | null {
  return state?.ok ? { type: "user", id: state.user.id, label: state.user.email, role: state.user.role } : null;
}
