// GET /traces?agent=…&user_id=…&thread_id=…&q=…&page=…: conversation traces for admins and
// viewers (`agent_id` is read as an alias of `agent`). Without a thread it lists one page of
// matching threads with their total; with one it shows the thread's timeline at
// #trace-timeline. It never shows persona goals.
import { requireScope } from "@/lib/auth/page-access";
import { readDb } from "@/lib/db/client";
import { loadTracesPage, tracesFilters, tracesHref, TIMELINE_PAGE } from "@/lib/traces/pages/traces";
import Link from "@/components/ui/link";
import { linkClass } from "@/components/review/styles";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { AccountLinks, AgentLink } from "@/components/links/record-link";
import { TraceFilters } from "@/components/traces/trace-filters";
import { ThreadList } from "@/components/traces/thread-list";
import { TraceTimeline } from "@/components/traces/trace-timeline";
import { pluralise } from "@/lib/text/format";

export const dynamic = "force-dynamic";

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function TracesPage({ searchParams }: { searchParams: Search }) {
  const sp = await searchParams;
  const filters = tracesFilters(sp);
  await requireScope(filters.path, "learning:read");
  const { agentId, userId, threadId, rootTraceId, search } = filters;
  const { agents, list, timeline } = await loadTracesPage(await readDb(), filters);
  return (
    <div className="min-w-0">
      <PageHeader title="Traces" description="Conversations as timelines: messages, tool-calling runs, the skills supplied to them, and persona reviews." />
      <TraceFilters key={filters.path} agentId={agentId} userId={userId} threadId={threadId} search={search} agents={agents} />
      {timeline ? (
        <section id="trace-timeline" aria-labelledby="trace-timeline-title" className="min-w-0 scroll-mt-20">
          <h2 id="trace-timeline-title" className="mb-1 text-base font-semibold break-all">
            Thread {threadId}
          </h2>
          <p className="mb-3 flex flex-wrap gap-x-1 text-sm break-all text-slate-600 dark:text-slate-400">
            {userId ? (
              <span>
                Account <AccountLinks userId={userId} agentId={agentId} /> ·
              </span>
            ) : (
              <span>Any account ·</span>
            )}
            {agentId ? (
              <span>
                agent <AgentLink id={agentId} /> ·
              </span>
            ) : (
              <span>any agent ·</span>
            )}
            <span>{`${pluralise(timeline.total, "event")}${timeline.truncated ? " (the newest 500 of each kind)" : ""}`}</span>
          </p>
          {timeline.earlier > 0 ? (
            <p className="mb-3 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600 dark:text-slate-300">
              <span>Showing the latest {pluralise(timeline.events.length, "event")}.</span>
              <Link href={`${tracesHref(filters, { events: filters.shown + TIMELINE_PAGE })}#trace-timeline`} className={linkClass}>
                Show {pluralise(Math.min(TIMELINE_PAGE, timeline.earlier), "earlier event")}
              </Link>
              <a href="#timeline-latest" className={linkClass}>
                Jump to latest
              </a>
            </p>
          ) : timeline.events.length > 10 ? (
            <p className="mb-3 text-sm">
              <a href="#timeline-latest" className={linkClass}>
                Jump to latest
              </a>
            </p>
          ) : null}
          {timeline.events.length === 0 ? (
            <EmptyState title="Nothing recorded in this thread">No messages, runs or persona reviews match these filters.</EmptyState>
          ) : (
            <>
              <TraceTimeline events={timeline.events} rootTraceId={rootTraceId} />
              <p id="timeline-latest" className="mt-3 scroll-mt-20 text-xs text-slate-600 dark:text-slate-300">
                Latest event of the thread.
              </p>
            </>
          )}
        </section>
      ) : list ? (
        <ThreadList
          threads={list.rows}
          total={list.total}
          capped={list.capped}
          filtered={Boolean(agentId || userId || search)}
          firstHref={filters.after ? tracesHref(filters, { after: null }) : null}
          nextHref={list.next ? tracesHref(filters, { after: list.next }) : null}
        />
      ) : null}
    </div>
  );
}
