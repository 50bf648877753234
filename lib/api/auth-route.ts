// The HTTP side of next-auth's route (app/api/auth/[...nextauth]): how it reads a path, the
// bounded form read, and the answer an ended session gets from the session endpoint.
import { NextRequest, NextResponse } from "next/server";
import type { z } from "zod";
import { db } from "../db/client";
import { secureCookies } from "../auth/cookies";
import { checkSession } from "../auth/sessions";
import { sessionCookieName, sessionToken } from "../auth/session-token";
import { parseAuthForm } from "../auth/sign-in-form";
import { readLimited } from "./json-body";
import { problems } from "./problem";

/**
 * next-auth's route table: the action is the first segment, the provider the second, and any
 * further segments are ignored (`/callback/credentials/x` is a credentials sign-in), so every
 * guard reads the path the same way.
 */
export function authRoute(segments: readonly string[]) {
  const [action, provider] = segments;
  return { action, credentialsSignIn: action === "callback" && provider === "credentials" };
}

/** A sign-in form is a few hundred bytes. */
const MAX_FORM_BYTES = 16 * 1024;

/** The form next-auth would read, size-limited and parsed by `schema`. */
export async function readAuthForm<S extends z.ZodType>(req: NextRequest, schema: S): Promise<z.output<S>> {
  if (Number(req.headers.get("content-length")) > MAX_FORM_BYTES) throw problems.tooLarge(MAX_FORM_BYTES);
  const text = new TextDecoder().decode(await readLimited(req, MAX_FORM_BYTES));
  return parseAuthForm(schema as never, req.headers.get("content-type"), text) as z.output<S>;
}

/** `req` with its body replaced by `body` (a urlencoded form). */
export function withForm(req: NextRequest, body: string): NextRequest {
  const headers = new Headers(req.headers);
  headers.set("content-type", "application/x-www-form-urlencoded");
  headers.delete("content-length");
  return new NextRequest(req.url, { method: req.method, headers, body });
}

/**
 * For a session cookie whose session has ended (or expired): what next-auth answers a signed-out
 * caller, `{}`, with the cookie cleared; null when there is no such cookie. (next-auth alone would
 * answer the JWT's name, email and role, and refresh the cookie.)
 */
export async function endedSessionAnswer(req: NextRequest): Promise<Response | null> {
  const token = await sessionToken(req.cookies);
  if (!token || (await checkSession(db(), token.sid)).ok) return null;
  const res = NextResponse.json({}, { headers: { "cache-control": "no-store" } });
  for (const { name } of req.cookies.getAll()) {
    if (name.startsWith(sessionCookieName())) res.cookies.set(name, "", { path: "/", maxAge: 0, httpOnly: true, sameSite: "lax", secure: secureCookies() });
  }
  return res;
}

/** next-auth signals a successful sign-in only by issuing the session cookie. */
export function setsSession(res: Response): boolean {
  return res.headers.getSetCookie().some((c) => /^(__Secure-)?next-auth\.session-token=[^;]+/.test(c));
}
