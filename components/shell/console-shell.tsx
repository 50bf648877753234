"use client";
// The console frame: sidebar of sections (a drawer behind a menu button below 768 px), the
// agent switcher, dark mode, the user menu and the read-only banner.
import Link from "@/components/ui/link";
import { usePathname } from "next/navigation";
import { Fragment, useState } from "react";
import type { Scope } from "@/lib/auth/access";
import { INBOX_KINDS, INBOX_LABEL, inboxTotal, type InboxCounts } from "@/lib/console/inbox-words";
import { SECTIONS } from "./sections";
import { AgentSwitcher, useScopedAgent, type ServerScope } from "./agent-switcher";
import { useInboxCounts } from "./inbox-counts";
import { NavigationProgress } from "./navigation-progress";
import { ThemeToggle } from "./theme-toggle";
import { UserMenu } from "./user-menu";
import { ScopesProvider } from "./scopes";
import { formatNumber } from "@/lib/text/format";

type Props = {
  user: { email: string; role: "ADMIN" | "VIEWER"; scopes: readonly Scope[] };
  agents: { id: string; name: string }[];
  /** What awaits a decision, by kind (the sidebar's counts under Inbox), for the server's scope. */
  inbox: InboxCounts;
  scope: ServerScope;
  readOnly: boolean;
  children: React.ReactNode;
};

export function ConsoleShell({ user, agents, inbox: rendered, scope, readOnly, children }: Props) {
  const pathname = usePathname();
  const agent = useScopedAgent(scope);
  const inbox = useInboxCounts(agent, scope.agent, rendered);
  const waiting = inboxTotal(inbox);
  // The mobile menu closes when the page changes (state adjusted while rendering, not in an
  // effect, so the new page never paints with the menu still open).
  const [menuOpen, setMenuOpen] = useState(false);
  const [menuPath, setMenuPath] = useState(pathname);
  if (menuPath !== pathname) {
    setMenuPath(pathname);
    setMenuOpen(false);
  }
  const sections = SECTIONS.filter((s) => user.scopes.includes(s.scope));

  const nav = (
    <nav aria-label="Sections" className="flex flex-col gap-0.5 p-3">
      {sections.map((s) => {
        const current = pathname === s.href || pathname.startsWith(s.href + "/");
        const href = agent && s.agentFilter ? `${s.href}?agent=${encodeURIComponent(agent)}` : s.href;
        return (
          <Fragment key={s.href}>
            <Link
              href={href}
              aria-current={current ? "page" : undefined}
              className={`rounded-md px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-500 ${
                current
                  ? "bg-indigo-50 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300"
                  : "text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
              }`}
            >
              <span className="flex items-center justify-between gap-2">
                {s.label}
                {s.href === "/" && waiting > 0 ? (
                  <span className="rounded-full bg-indigo-600 px-2 py-0.5 text-xs font-semibold text-white tabular-nums">
                    {formatNumber(waiting)}
                  </span>
                ) : null}
              </span>
            </Link>
            {s.href === "/" && waiting > 0 ? (
              <ul aria-label="Awaiting a decision" className="mt-1 mb-2 ml-3 space-y-0.5 border-l border-slate-200 pl-2 text-xs dark:border-slate-700">
                {INBOX_KINDS.filter((k) => (inbox[k] ?? 0) > 0).map((k) => (
                  <li key={k}>
                    <Link href={`/${agent ? `?agent=${encodeURIComponent(agent)}` : ""}#${k}`} className="flex justify-between gap-2 rounded px-1 py-0.5 text-slate-600 hover:bg-slate-100 dark:text-slate-400 dark:hover:bg-slate-800">
                      <span>{INBOX_LABEL[k]}</span>
                      <span className="tabular-nums">{formatNumber(inbox[k]!)}</span>
                    </Link>
                  </li>
                ))}
              </ul>
            ) : null}
          </Fragment>
        );
      })}
    </nav>
  );

  return (
    <div className="min-h-screen md:grid md:grid-cols-[14rem_1fr]">
      <NavigationProgress />
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 dark:focus:bg-slate-900">
        Skip to content
      </a>
      <aside className="hidden border-r border-slate-200 bg-slate-50 md:block dark:border-slate-800 dark:bg-slate-900/40">
        <div className="sticky top-0">
          <Link href="/" className="block px-6 py-4 text-lg font-semibold tracking-tight focus-visible:outline-2 focus-visible:outline-indigo-500">
            Proctor
          </Link>
          {nav}
        </div>
      </aside>
      <div className="flex min-w-0 flex-col">
        <header className="sticky top-0 z-30 flex items-center gap-2 border-b border-slate-200 bg-white/95 px-3 py-2 backdrop-blur sm:px-6 dark:border-slate-800 dark:bg-slate-950/95">
          <button
            type="button"
            className="rounded-md p-2 text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 md:hidden dark:text-slate-200 dark:hover:bg-slate-800"
            aria-label="Menu"
            aria-expanded={menuOpen}
            aria-controls="mobile-nav"
            onClick={() => setMenuOpen(!menuOpen)}
          >
            <span aria-hidden>☰</span>
          </button>
          <Link href="/" className="font-semibold md:hidden">
            Proctor
          </Link>
          <div className="ml-auto flex min-w-0 items-center gap-1 sm:gap-2">
            <AgentSwitcher agents={agents} selected={agent} />
            <ThemeToggle />
            <UserMenu email={user.email} role={user.role} />
          </div>
        </header>
        {menuOpen ? (
          <div id="mobile-nav" className="border-b border-slate-200 bg-slate-50 md:hidden dark:border-slate-800 dark:bg-slate-900">
            {nav}
          </div>
        ) : null}
        {readOnly ? (
          <p role="status" className="border-b border-amber-300 bg-amber-50 px-6 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200">
            Read-only mode (PROCTOR_READ_ONLY=1): you can look at everything, but nothing can be changed.
          </p>
        ) : null}
        <main id="main" className="mx-auto w-full max-w-7xl min-w-0 flex-1 px-4 py-6 sm:px-6">
          <ScopesProvider value={user.scopes}>{children}</ScopesProvider>
        </main>
      </div>
    </div>
  );
}
