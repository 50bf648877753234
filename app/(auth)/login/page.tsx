// Sign-in page: email and password, and single sign-on when OIDC is configured. A signed-in
// user is sent straight on to `next`. It says why you are here when a session ended (`reason`,
// set by sign-out and by the redirect of an ended session, lib/auth/page-access.ts).
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { LoginForm } from "@/components/auth/login-form";
import { currentUser } from "@/lib/auth/page-access";
import { oidcConfig } from "@/lib/auth/options";
import { safeNextPath } from "@/lib/auth/next-path";
import type { EndReason } from "@/lib/auth/sessions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in · Proctor" };

const ERRORS: Record<string, string> = {
  AccessDenied: "This account may not sign in here. Ask an admin to add your email as a Proctor user.",
  OAuthSignin: "Single sign-on could not be started. Try again, or sign in with your password.",
  OAuthCallback: "Single sign-on did not complete. Try again, or sign in with your password.",
  CredentialsSignin: "Wrong email or password.",
  SessionRequired: "Please sign in to continue.",
  Unavailable: "The service is temporarily unavailable. Try again in a moment.",
};

const REASONS: Record<EndReason, string> = {
  signed_out: "You signed out.",
  signed_out_everywhere: "You signed out everywhere: every session of your account has ended.",
  password_changed: "Your password was changed, so this session ended. Sign in with the new password.",
  ended_by_admin: "An admin changed your account or ended your sessions. Sign in again.",
  expired: "Your session expired (sessions last 8 hours). Sign in again.",
};

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const next = safeNextPath(typeof sp.next === "string" ? sp.next : undefined);
  if (await currentUser()) redirect(next);
  const error = typeof sp.error === "string" ? (ERRORS[sp.error] ?? "Sign-in failed. Try again.") : null;
  const reason = typeof sp.reason === "string" && Object.hasOwn(REASONS, sp.reason) ? REASONS[sp.reason as EndReason] : null;
  const oidc = oidcConfig();
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <h1 className="text-center text-2xl font-semibold tracking-tight">Proctor</h1>
        <p className="mt-1 text-center text-sm text-slate-600 dark:text-slate-400">Sign in to review what your agents have learned.</p>
        {reason && !error ? (
          <p role="status" className="mt-6 rounded-md border border-slate-300 bg-slate-50 px-3 py-2 text-sm text-slate-800 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200">
            {reason}
          </p>
        ) : null}
        <LoginForm next={next} initialError={error} oidcName={oidc?.name ?? null} />
      </div>
    </main>
  );
}
