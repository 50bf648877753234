// next-auth, with guards in front of it: cross-origin writes are refused; every POST body is
// parsed once (lib/auth/sign-in-form.ts) and next-auth is handed a form rebuilt from those
// values; a credentials sign-in, on whatever path next-auth reads as one, is throttled
// (lib/auth/login-throttle.ts) on the email that authenticates; an ended session reads as
// signed out; a sign-out with `everywhere=true` ends every session of the account first.
import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { randomUUID } from "node:crypto";
import { authOptions } from "@/lib/auth/options";
import { checkOrigin, clientHash, errorResponse } from "@/lib/api/handler";
import { authRoute, endedSessionAnswer, readAuthForm, setsSession, withForm } from "@/lib/api/auth-route";
import { ProblemError } from "@/lib/api/problem";
import { db } from "@/lib/db/client";
import { pseudonym, pseudonymKey } from "@/lib/auth/instance-secret";
import { beginLoginAttempt, finishLoginAttempt } from "@/lib/auth/login-throttle";
import { signOutOwnSessions } from "@/lib/auth/operations";
import { sessionActor } from "@/lib/auth/session";
import { authFormBody, authFormSchema, signInFormSchema } from "@/lib/auth/sign-in-form";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ nextauth: string[] }> };
const nextAuth = NextAuth(authOptions) as (req: NextRequest, ctx: Ctx) => Promise<Response>;

export async function GET(req: NextRequest, ctx: Ctx): Promise<Response> {
  const requestId = randomUUID();
  try {
    const route = authRoute((await ctx.params).nextauth);
    if (route.credentialsSignIn) {
      throw new ProblemError("method_not_allowed", "A credentials sign-in is a POST.", undefined, { Allow: "POST" });
    }
    if (route.action === "session") return (await endedSessionAnswer(req)) ?? (await nextAuth(req, ctx));
    return await nextAuth(req, ctx);
  } catch (err) {
    return errorResponse(err, requestId);
  }
}

export async function POST(req: NextRequest, ctx: Ctx): Promise<Response> {
  const requestId = randomUUID();
  try {
    checkOrigin(req);
    const route = authRoute((await ctx.params).nextauth);
    if (!route.credentialsSignIn) {
      const form = await readAuthForm(req, authFormSchema);
      if (route.action === "session") {
        const ended = await endedSessionAnswer(req);
        if (ended) return ended;
      }
      const actor = route.action === "signout" && form.everywhere ? await sessionActor() : null;
      if (actor) await signOutOwnSessions(db(), { userId: actor.id }, { actor, requestId, clientHash: await clientHash(req) });
      return await nextAuth(withForm(req, authFormBody(form)), ctx);
    }

    const form = await readAuthForm(req, signInFormSchema);
    const database = db();
    const account = pseudonym(await pseudonymKey(database), "login", form.email);
    const client = (await clientHash(req)) ?? "unknown";
    const attempt = await beginLoginAttempt(database, account, client);
    if (!attempt.allowed) {
      const detail = "Too many failed sign-in attempts; try again in a minute.";
      const headers = { "Retry-After": String(attempt.retryAfterSeconds) };
      return errorResponse(new ProblemError("rate_limited", detail, undefined, headers), requestId);
    }
    const res = await nextAuth(withForm(req, authFormBody(form)), ctx);
    await finishLoginAttempt(database, { id: attempt.id, account, clientHash: client }, setsSession(res));
    return res;
  } catch (err) {
    return errorResponse(err, requestId);
  }
}
