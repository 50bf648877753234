// next-auth, with two guards in front of it: cross-origin writes are refused, and the
// credentials callback is throttled (429 after 5 failures a minute per account and address).
import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { randomUUID } from "node:crypto";
import { authOptions } from "@/lib/auth/options";
import { checkOrigin, clientHash, errorResponse } from "@/lib/api/handler";
import { ProblemError } from "@/lib/api/problem";
import { db } from "@/lib/db/client";
import { pseudonym, pseudonymKey } from "@/lib/auth/instance-secret";
import { beginLoginAttempt, finishLoginAttempt } from "@/lib/auth/login-throttle";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ nextauth: string[] }> };
const nextAuth = NextAuth(authOptions) as (req: NextRequest, ctx: Ctx) => Promise<Response>;

export const GET = (req: NextRequest, ctx: Ctx) => nextAuth(req, ctx);

export async function POST(req: NextRequest, ctx: Ctx): Promise<Response> {
  const requestId = randomUUID();
  try {
    checkOrigin(req);
    const { nextauth } = await ctx.params;
    if (nextauth.join("/") !== "callback/credentials") return await nextAuth(req, ctx);

    const database = db();
    const email = (await submittedEmail(req)).trim().toLowerCase();
    const account = pseudonym(await pseudonymKey(database), "login", email);
    const client = (await clientHash(req)) ?? "unknown";
    const attempt = await beginLoginAttempt(database, account, client);
    if (!attempt.allowed) {
      const detail = "Too many failed sign-in attempts; try again in a minute.";
      const headers = { "Retry-After": String(attempt.retryAfterSeconds) };
      return errorResponse(new ProblemError("rate_limited", detail, undefined, headers), requestId);
    }
    const res = await nextAuth(req, ctx);
    await finishLoginAttempt(database, { id: attempt.id, account, clientHash: client }, setsSession(res));
    return res;
  } catch (err) {
    return errorResponse(err, requestId);
  }
}

async function submittedEmail(req: Request): Promise<string> {
  const text = await req.clone().text();
  if (req.headers.get("content-type")?.includes("application/json")) {
    try {
      return String((JSON.parse(text) as { email?: unknown }).email ?? "");
    } catch {
      return "";
    }
  }
  return new URLSearchParams(text).get("email") ?? "";
}

/** next-auth signals a successful sign-in only by issuing the session cookie. */
function setsSession(res: Response): boolean {
  return res.headers.getSetCookie().some((c) => /^(__Secure-)?next-auth\.session-token=[^;]+/.test(c));
}
