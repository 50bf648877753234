// One keyset page of conversation threads matching the filters, with their count; each opens its
// timeline, and names its account (persona page) and agent.
import { LocalTime } from "@/components/ui/local-time";
import { EmptyState } from "@/components/ui/empty-state";
import { countLabel, KeysetPagination } from "@/components/ui/table";
import { AccountLinks, AgentLink, ThreadLink } from "@/components/links/record-link";
import type { ThreadSummary } from "@/lib/traces/timeline";
import { pluralise } from "@/lib/text/format";

type Props = { threads: ThreadSummary[]; total: number; capped: boolean; filtered: boolean; firstHref: string | null; nextHref: string | null };

export function ThreadList({ threads, total, capped, filtered, firstHref, nextHref }: Props) {
  if (total === 0) {
    return filtered ? (
      <EmptyState title="No threads match these filters">Clear the search or a filter to see more threads.</EmptyState>
    ) : (
      <EmptyState title="No conversation traces yet">
        Agents send conversations to <code>POST /api/v1/agents/{"{agent_id}"}/conversations</code> and runs to{" "}
        <code>POST /api/v1/agents/{"{agent_id}"}/workflows</code>; threads appear here as they arrive.
      </EmptyState>
    );
  }
  return (
    <section aria-labelledby="threads">
      <h2 id="threads" className="mb-2 text-base font-semibold">
        Threads <span className="font-normal text-slate-500">({countLabel(total, capped)})</span>
      </h2>
      {threads.length === 0 ? (
        <EmptyState title="No more threads">The threads end before this page.</EmptyState>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
          {threads.map((t) => (
            <li key={`${t.agentId}|${t.userId}|${t.threadId}`} data-testid="thread" className="flex flex-wrap items-center gap-x-4 gap-y-1 px-3 py-2 text-sm">
              <ThreadLink agentId={t.agentId} userId={t.userId} threadId={t.threadId} />
              <span className="min-w-0 text-slate-600 dark:text-slate-400">
                account {t.userId ? <AccountLinks userId={t.userId} agentId={t.agentId} /> : "—"}
              </span>
              <span className="min-w-0 text-slate-600 dark:text-slate-400">
                agent <AgentLink id={t.agentId} />
              </span>
              <span className="text-slate-600 dark:text-slate-400">
                {pluralise(t.messages, "message")} · {pluralise(t.runs, "run")}
              </span>
              <span className="ml-auto text-xs text-slate-500">
                <LocalTime iso={t.lastAt} />
              </span>
            </li>
          ))}
        </ul>
      )}
      <KeysetPagination total={total} capped={capped} firstHref={firstHref} nextHref={nextHref} />
    </section>
  );
}
