// next-auth, with two guards in front of it: cross-origin writes are refused, and the
// credentials callback is throttled (lib/auth/login-throttle.ts). The sign-in form is parsed
// once (lib/auth/sign-in-form.ts) and next-auth is handed a form rebuilt from those values, so
// the email that is throttled is the one that authenticates.
import NextAuth from "next-auth";
import { NextRequest } from "next/server";
import { randomUUID } from "node:crypto";
import { authOptions } from "@/lib/auth/options";
import { checkOrigin, clientHash, errorResponse } from "@/lib/api/handler";
import { readLimited } from "@/lib/api/json-body";
import { ProblemError, problems } from "@/lib/api/problem";
import { db } from "@/lib/db/client";
import { pseudonym, pseudonymKey } from "@/lib/auth/instance-secret";
import { beginLoginAttempt, finishLoginAttempt } from "@/lib/auth/login-throttle";
import { parseSignInForm, signInFormBody } from "@/lib/auth/sign-in-form";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ nextauth: string[] }> };
const nextAuth = NextAuth(authOptions) as (req: NextRequest, ctx: Ctx) => Promise<Response>;

/** A sign-in form is a few hundred bytes. */
const MAX_FORM_BYTES = 16 * 1024;

export const GET = (req: NextRequest, ctx: Ctx) => nextAuth(req, ctx);

export async function POST(req: NextRequest, ctx: Ctx): Promise<Response> {
  const requestId = randomUUID();
  try {
    checkOrigin(req);
    const { nextauth } = await ctx.params;
    if (nextauth.join("/") !== "callback/credentials") return await nextAuth(req, ctx);

    if (Number(req.headers.get("content-length")) > MAX_FORM_BYTES) throw problems.tooLarge(MAX_FORM_BYTES);
    const text = new TextDecoder().decode(await readLimited(req, MAX_FORM_BYTES));
    const form = parseSignInForm(req.headers.get("content-type"), text);

    const database = db();
    const account = pseudonym(await pseudonymKey(database), "login", form.email);
    const client = (await clientHash(req)) ?? "unknown";
    const attempt = await beginLoginAttempt(database, account, client);
    if (!attempt.allowed) {
      const detail = "Too many failed sign-in attempts; try again in a minute.";
      const headers = { "Retry-After": String(attempt.retryAfterSeconds) };
      return errorResponse(new ProblemError("rate_limited", detail, undefined, headers), requestId);
    }
    const headers = new Headers(req.headers);
    headers.set("content-type", "application/x-www-form-urlencoded");
    headers.delete("content-length");
    const canonical = new NextRequest(req.url, { method: "POST", headers, body: signInFormBody(form) });
    const res = await nextAuth(canonical, ctx);
    await finishLoginAttempt(database, { id: attempt.id, account, clientHash: client }, setsSession(res));
    return res;
  } catch (err) {
    return errorResponse(err, requestId);
  }
}

/** next-auth signals a successful sign-in only by issuing the session cookie. */
function setsSession(res: Response): boolean {
  return res.headers.getSetCookie().some((c) => /^(__Secure-)?next-auth\.session-token=[^;]+/.test(c));
}
