"use client";
// Posts to next-auth's credentials callback directly (rather than signIn()) so that the
// throttle's 429 can be told apart from a wrong password.
import { useState } from "react";
import { signIn } from "next-auth/react";
import { Button } from "../ui/button";

type Props = { next: string; initialError: string | null; oidcName: string | null };

const field =
  "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-700 dark:bg-slate-900";

async function signInWithPassword(email: string, password: string, callbackUrl: string): Promise<string | null> {
  const csrf = await fetch("/api/auth/csrf", { credentials: "same-origin" });
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch("/api/auth/callback/credentials", {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl, json: "true" }),
  });
  if (res.status === 429) return "Too many attempts, try again in a minute.";
  if (res.status === 401) return "Wrong email or password.";
  if (!res.ok) return "Sign-in is unavailable right now. Try again in a moment.";
  const body = (await res.json().catch(() => ({}))) as { url?: string };
  return body.url && new URL(body.url, location.href).searchParams.has("error") ? "Wrong email or password." : null;
}

export function LoginForm({ next, initialError, oidcName }: Props) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(initialError);
  const [pending, setPending] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setPending(true);
    setError(null);
    try {
      const problem = await signInWithPassword(email, password, next);
      if (problem) {
        setError(problem);
        setPending(false);
        return;
      }
      // A full navigation, so the server renders the console with the new session cookie.
      window.location.assign(next);
    } catch {
      setError("The server could not be reached. Check your connection and try again.");
      setPending(false);
    }
  }

  return (
    <div className="mt-8 rounded-lg border border-slate-200 p-6 shadow-sm dark:border-slate-800">
      <form onSubmit={submit} className="space-y-4" noValidate>
        <label className="block text-sm font-medium">
          Email
          <input className={field} type="email" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label className="block text-sm font-medium">
          Password
          <input
            className={field}
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        {error ? (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-300">
            {error}
          </p>
        ) : null}
        <Button type="submit" className="w-full" pending={pending} disabled={!email || !password}>
          Sign in
        </Button>
      </form>
      {oidcName ? (
        <>
          <div className="my-4 flex items-center gap-3 text-xs text-slate-500">
            <span className="h-px flex-1 bg-slate-200 dark:bg-slate-800" />
            or
            <span className="h-px flex-1 bg-slate-200 dark:bg-slate-800" />
          </div>
          <Button variant="secondary" className="w-full" onClick={() => void signIn("oidc", { callbackUrl: next })}>
            {`Sign in with ${oidcName}`}
          </Button>
        </>
      ) : null}
    </div>
  );
}
