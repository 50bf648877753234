// The console's home: the review inbox. Everything awaiting a decision, grouped and counted,
// each row linking to where the decision is made; `?agent=` keeps it to one agent.
import Link from "@/components/ui/link";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import { groupHref, inboxHref } from "@/components/inbox/inbox-links";
import { GettingStarted } from "@/components/inbox/getting-started";
import { DeadJobActions } from "@/components/jobs/dead-job-actions";
import { can } from "@/lib/auth/access";
import { requireScope } from "@/lib/auth/page-access";
import { INBOX_LABEL, inboxWhy } from "@/lib/console/inbox";
import { loadInboxPage } from "@/lib/console/pages/inbox";
import { hrefWith, type SearchParams } from "@/lib/console/url";
import { readDb } from "@/lib/db/client";
import { formatNumber, pluralise } from "@/lib/text/format";

export const dynamic = "force-dynamic";

export default async function InboxPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  const user = await requireScope(hrefWith("/", sp, {}), "learning:read");
  const { agent, groups, total, setup } = await loadInboxPage(await readDb(), sp, (scope) => can(user, scope));
  return (
    <>
      <PageHeader
        title="Inbox"
        description={
          <>
            {total === 0 ? "Nothing awaits a decision" : `${pluralise(total, "item")} awaiting ${can(user, "learning:write") ? "a decision" : "an admin's decision"}`}
            {agent ? (
              <>
                {" "}for agent <code>{agent}</code> ·{" "}
                <Link href="/" className="font-medium text-indigo-700 hover:underline dark:text-indigo-300">
                  all agents
                </Link>
              </>
            ) : (
              " across all agents"
            )}
            .
          </>
        }
      />
      {setup ? (
        <GettingStarted setup={setup} canSetUp={can(user, "apiKeys:manage")} />
      ) : groups.length === 0 ? (
        <EmptyState title="All caught up">
          No skill, class, persona suggestion, deviation, procedure, job or unmapped trace is waiting for you. New items appear here as agents send runs.
        </EmptyState>
      ) : (
        <div className="grid min-w-0 gap-4 lg:grid-cols-2">
          {groups.map((g) => (
            <section key={g.kind} id={g.kind} aria-labelledby={`${g.kind}-title`} className="min-w-0 scroll-mt-20 rounded-lg border border-slate-200 dark:border-slate-800">
              <header className="flex flex-wrap items-baseline gap-x-2 gap-y-1 border-b border-slate-200 px-4 py-3 dark:border-slate-800">
                <h2 id={`${g.kind}-title`} className="text-base font-semibold">
                  {INBOX_LABEL[g.kind]}
                </h2>
                <span className="rounded-full bg-indigo-100 px-2 py-0.5 text-xs font-semibold text-indigo-800 tabular-nums dark:bg-indigo-950 dark:text-indigo-300" aria-label={`${g.count} waiting`}>
                  {formatNumber(g.count)}
                </span>
                <p className="w-full text-xs text-slate-600 dark:text-slate-400">{inboxWhy(g.kind, (scope) => can(user, scope))}</p>
              </header>
              <ul className="divide-y divide-slate-200 dark:divide-slate-800" aria-label={INBOX_LABEL[g.kind]}>
                {g.rows.map((r) => (
                  <li key={r.key} className={r.deadJobs ? "flex items-center gap-2 pr-4" : undefined}>
                    <Link
                      href={inboxHref(r.target)}
                      className="block min-w-0 flex-1 px-4 py-2.5 hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-500 dark:hover:bg-slate-900"
                    >
                      <span className="block font-medium break-words text-indigo-700 dark:text-indigo-300">
                        {r.title}
                        {r.marks ? (
                          <span data-testid="inbox-marks" className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-950 dark:text-amber-200">
                            {r.marks}
                          </span>
                        ) : null}
                      </span>
                      <span className="block text-xs break-words text-slate-600 dark:text-slate-400">
                        {r.detail}
                        {r.at ? (
                          <>
                            {" · "}
                            <LocalTime iso={r.at} />
                          </>
                        ) : null}
                      </span>
                    </Link>
                    {r.deadJobs && can(user, "learning:write") ? <DeadJobActions select={r.deadJobs} what={r.title} /> : null}
                  </li>
                ))}
              </ul>
              {g.count > g.rows.length ? (
                <p className="border-t border-slate-200 px-4 py-2 text-sm dark:border-slate-800">
                  <Link href={groupHref(g.kind, agent)} className="font-medium text-indigo-700 hover:underline dark:text-indigo-300">
                    View all {formatNumber(g.count)}
                  </Link>
                </p>
              ) : null}
            </section>
          ))}
        </div>
      )}
    </>
  );
}
