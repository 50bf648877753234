"use client";
// Who is signed in, with which role, the own password, and the ways out: "Sign out" ends this
// session, "Sign out everywhere" every session of the account. Both land on the sign-in page,
// which says why (a full load on purpose: the client router's cache holds the signed-in pages).
import { getCsrfToken, signOut } from "next-auth/react";
import { useEffect, useRef, useState } from "react";
import { Badge } from "../ui/badge";
import Link from "../ui/link";
import { useToast } from "../ui/toast";

const ITEM = "mt-1 block w-full rounded px-2 py-1.5 text-left text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-slate-800";

export function UserMenu({ email, role }: { email: string; role: "ADMIN" | "VIEWER" }) {
  const [open, setOpen] = useState(false);
  const [leaving, setLeaving] = useState<"one" | "all" | null>(null);
  const toast = useToast();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent | KeyboardEvent) => {
      if (e instanceof KeyboardEvent ? e.key === "Escape" : !ref.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("mousedown", close);
      document.removeEventListener("keydown", close);
    };
  }, [open]);
  return (
    <div ref={ref} className="relative">
      <button
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="flex items-center gap-2 rounded-md px-2 py-1.5 text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-slate-800"
      >
        <span aria-hidden className="flex size-7 items-center justify-center rounded-full bg-indigo-600 text-xs font-semibold text-white uppercase">
          {email.slice(0, 1)}
        </span>
        {/* The name is the visible text (the email, read but not shown on narrow screens). */}
        <span className="sr-only">Account:</span>{" "}
        <span className="sr-only md:not-sr-only md:max-w-[12rem] md:truncate">{email}</span>
      </button>
      {open ? (
        <div role="menu" className="absolute right-0 z-40 mt-1 w-64 rounded-md border border-slate-200 bg-white p-2 shadow-lg dark:border-slate-700 dark:bg-slate-900">
          <div className="border-b border-slate-100 px-2 pb-2 dark:border-slate-800">
            <p className="truncate text-sm font-medium" title={email}>
              {email}
            </p>
            <p className="mt-1 text-xs text-slate-500">
              Role: <Badge status={role.toLowerCase()} />
            </p>
          </div>
          <Link role="menuitem" href="/account" onClick={() => setOpen(false)} className={ITEM}>
            Change password
          </Link>
          <button
            type="button"
            role="menuitem"
            disabled={leaving !== null}
            onClick={() => {
              setLeaving("one");
              // Stay on this host (NEXTAUTH_URL may name another) and land on the login page.
              // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- a full load on purpose
              void signOut({ redirect: false }).finally(() => window.location.assign("/login?reason=signed_out"));
            }}
            className={ITEM}
          >
            {leaving === "one" ? "Signing out…" : "Sign out"}
          </button>
          <button
            type="button"
            role="menuitem"
            disabled={leaving !== null}
            aria-describedby="user-menu-everywhere"
            onClick={() => {
              setLeaving("all");
              signOutEverywhere().then(
                // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- a full load on purpose
                () => window.location.assign("/login?reason=signed_out_everywhere"),
                (e: Error) => {
                  setLeaving(null);
                  toast.error(e.message);
                },
              );
            }}
            className={ITEM}
          >
            {leaving === "all" ? "Signing out everywhere…" : "Sign out everywhere"}
          </button>
          <p id="user-menu-everywhere" className="px-2 text-xs text-slate-500">
            Every browser and device, this one included
          </p>
        </div>
      ) : null}
    </div>
  );
}

/** next-auth's sign-out with `everywhere`: every session of the account ends, this one included. */
async function signOutEverywhere(): Promise<void> {
  const csrfToken = await getCsrfToken();
  const res = await fetch("/api/auth/signout", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken: csrfToken ?? "", everywhere: "true", json: "true" }),
  });
  if (!res.ok) throw new Error("Signing out everywhere failed. Try again.");
}
