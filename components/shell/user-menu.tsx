"use client";
// Who is signed in, with which role, and the way out.
import { signOut } from "next-auth/react";
import { useEffect, useRef, useState } from "react";
import { Badge } from "../ui/badge";

export function UserMenu({ email, role }: { email: string; role: "ADMIN" | "VIEWER" }) {
  const [open, setOpen] = useState(false);
  const [leaving, setLeaving] = useState(false);
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
        aria-label={`Account: ${email}`}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="flex items-center gap-2 rounded-md px-2 py-1.5 text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-slate-800"
      >
        <span aria-hidden className="flex size-7 items-center justify-center rounded-full bg-indigo-600 text-xs font-semibold text-white uppercase">
          {email.slice(0, 1)}
        </span>
        <span className="hidden max-w-[12rem] truncate md:inline">{email}</span>
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
          <button
            type="button"
            role="menuitem"
            disabled={leaving}
            onClick={() => {
              setLeaving(true);
              // Stay on this host (NEXTAUTH_URL may name another) and land on the login page.
              // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- a full load on purpose: the client router's cache holds the signed-in session's pages
              void signOut({ redirect: false }).finally(() => window.location.assign("/login"));
            }}
            className="mt-1 w-full rounded px-2 py-1.5 text-left text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-slate-800"
          >
            {leaving ? "Signing out…" : "Sign out"}
          </button>
        </div>
      ) : null}
    </div>
  );
}
