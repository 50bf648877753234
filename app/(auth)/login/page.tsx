// Sign-in page: email and password, and single sign-on when OIDC is configured. A signed-in
// user is sent straight on to `next`.
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { LoginForm } from "@/components/auth/login-form";
import { currentUser } from "@/lib/auth/page-access";
import { oidcConfig } from "@/lib/auth/options";
import { safeNextPath } from "@/lib/auth/next-path";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in · Proctor" };

const ERRORS: Record<string, string> = {
  AccessDenied: "This account may not sign in here. Ask an admin to add your email as a Proctor user.",
  OAuthSignin: "Single sign-on could not be started. Try again, or sign in with your password.",
  OAuthCallback: "Single sign-on did not complete. Try again, or sign in with your password.",
  CredentialsSignin: "Wrong email or password.",
  SessionRequired: "Please sign in to continue.",
};

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const next = safeNextPath(typeof sp.next === "string" ? sp.next : undefined);
  if (await currentUser()) redirect(next);
  const error = typeof sp.error === "string" ? (ERRORS[sp.error] ?? "Sign-in failed. Try again.") : null;
  const oidc = oidcConfig();
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <h1 className="text-center text-2xl font-semibold tracking-tight">Proctor</h1>
        <p className="mt-1 text-center text-sm text-slate-600 dark:text-slate-400">Sign in to review what your agents have learned.</p>
        <LoginForm next={next} initialError={error} oidcName={oidc?.name ?? null} />
      </div>
    </main>
  );
}
