// Console sessions. next-auth keeps each session in its signed JWT; the JWT also carries the id
// of a row here, and the session counts only while that row is neither ended nor expired and its
// user is active. Every server-side check asks here (./session.ts for pages, actions and console
// routes; the session endpoint; the request gate's body limit), so ending rows takes effect with
// the next request: "Sign out" ends one, "Sign out everywhere", a password change or reset, a
// deactivation and a role change end all of a user's. Sessions last 8 hours from sign-in.
import { randomBytes } from "node:crypto";
import type { Db, Tx } from "../db/prisma";

export const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;

/** Why a session ended: the sign-in page says it (app/(auth)/login). */
export const END_REASONS = ["signed_out", "signed_out_everywhere", "password_changed", "ended_by_admin", "expired"] as const;
export type EndReason = (typeof END_REASONS)[number];

/** Rows this long past their expiry are garbage (no cookie names them any more); pruned at sign-in. */
const RETENTION_MS = 24 * 60 * 60 * 1000;

/** A new session for the user: the id goes into the JWT. */
export async function startSession(database: Db, userId: string, now = new Date()): Promise<string> {
  const id = randomBytes(24).toString("base64url");
  await database.consoleSession.create({ data: { id, userId, expiresAt: new Date(now.getTime() + SESSION_MAX_AGE_SECONDS * 1000) } });
  await database.consoleSession.deleteMany({ where: { expiresAt: { lt: new Date(now.getTime() - RETENTION_MS) } } });
  return id;
}

export type SessionUser = { id: string; email: string; role: "ADMIN" | "VIEWER" };
/** A session that counts and its user, or why it does not (null: never known here, e.g. a JWT from before sessions had rows). */
export type SessionCheck = { ok: true; sessionId: string; user: SessionUser } | { ok: false; reason: EndReason | null };

export async function checkSession(database: Db, sessionId: unknown, now = new Date()): Promise<SessionCheck> {
  if (typeof sessionId !== "string" || sessionId.length === 0 || sessionId.length > 64) return { ok: false, reason: null };
  const row = await database.consoleSession.findUnique({
    where: { id: sessionId },
    select: { endedAt: true, endReason: true, expiresAt: true, user: { select: { id: true, email: true, role: true, active: true } } },
  });
  if (!row) return { ok: false, reason: null };
  if (row.endedAt) return { ok: false, reason: END_REASONS.find((r) => r === row.endReason) ?? "signed_out" };
  if (!row.user.active) return { ok: false, reason: "ended_by_admin" };
  if (row.expiresAt <= now) return { ok: false, reason: "expired" };
  const { active: _, ...user } = row.user;
  return { ok: true, sessionId, user };
}

/** Ends one session (sign-out); an ended one stays as it ended. */
export async function endSession(database: Db | Tx, sessionId: string, reason: EndReason): Promise<void> {
  await database.consoleSession.updateMany({ where: { id: sessionId, endedAt: null }, data: { endedAt: new Date(), endReason: reason } });
}

/** Ends every open session of the user, but `except` (the caller's own, when it stays): how many ended. */
export async function endUserSessions(tx: Db | Tx, userId: string, reason: EndReason, except?: string): Promise<number> {
  const { count } = await tx.consoleSession.updateMany({
    where: { userId, endedAt: null, ...(except ? { id: { not: except } } : {}) },
    data: { endedAt: new Date(), endReason: reason },
  });
  return count;
}
