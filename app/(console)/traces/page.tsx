// GET /traces?agent_id=…&user_id=…&thread_id=…: conversation traces for admins and viewers.
// Without a thread it lists recent threads; with one it shows the thread's timeline at
// #trace-timeline. It never shows persona goals.
import { requireScope } from "@/lib/auth/page-access";
import { db } from "@/lib/db/client";
import { loadTracesPage, tracesFilters } from "@/lib/traces/pages/traces";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { TraceFilters } from "@/components/traces/trace-filters";
import { ThreadList } from "@/components/traces/thread-list";
import { TraceTimeline } from "@/components/traces/trace-timeline";

export const dynamic = "force-dynamic";

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function TracesPage({ searchParams }: { searchParams: Search }) {
  const sp = await searchParams;
  const filters = tracesFilters(sp);
  await requireScope(filters.path, "learning:read");
  const { agentId, userId, threadId, rootTraceId } = filters;
  const { agents, threads, timeline } = await loadTracesPage(db(), filters);
  return (
    <div className="min-w-0">
      <PageHeader title="Traces" description="Conversations as timelines: messages, tool-calling runs, the skills supplied to them, and persona reviews." />
      <TraceFilters agentId={agentId} userId={userId} threadId={threadId} agents={agents} />
      {timeline ? (
        <section id="trace-timeline" aria-labelledby="trace-timeline-title" className="min-w-0 scroll-mt-20">
          <h2 id="trace-timeline-title" className="mb-1 text-base font-semibold break-all">
            Thread {threadId}
          </h2>
          <p className="mb-3 text-sm break-all text-slate-600 dark:text-slate-400">
            {[
              userId ? `Account ${userId}` : "Any account",
              agentId ? `agent ${agentId}` : "any agent",
              `${timeline.events.length} event${timeline.events.length === 1 ? "" : "s"}${timeline.truncated ? " (the newest 500 of each kind)" : ""}`,
            ].join(" · ")}
          </p>
          {timeline.events.length === 0 ? (
            <EmptyState title="Nothing recorded in this thread">No messages, runs or persona reviews match these filters.</EmptyState>
          ) : (
            <TraceTimeline events={timeline.events} rootTraceId={rootTraceId} />
          )}
        </section>
      ) : (
        <ThreadList threads={threads} />
      )}
    </div>
  );
}
