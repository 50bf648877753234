// Recent conversation threads matching the filters, each opening its timeline.
import Link from "next/link";
import { LocalTime } from "@/components/ui/local-time";
import { EmptyState } from "@/components/ui/empty-state";
import type { ThreadSummary } from "@/lib/traces/timeline";

export function threadHref(t: { agentId: string; userId: string | null; threadId: string }): string {
  const q = new URLSearchParams({ agent_id: t.agentId, user_id: t.userId ?? "", thread_id: t.threadId });
  return `/traces?${q.toString()}#trace-timeline`;
}

export function ThreadList({ threads }: { threads: ThreadSummary[] }) {
  if (threads.length === 0) {
    return (
      <EmptyState title="No conversation traces yet">
        Agents send conversations to <code>POST /api/v1/agents/{"{agent_id}"}/conversations</code> and runs to{" "}
        <code>POST /api/v1/agents/{"{agent_id}"}/workflows</code>; threads appear here as they arrive.
      </EmptyState>
    );
  }
  return (
    <section aria-labelledby="threads">
      <h2 id="threads" className="mb-2 text-base font-semibold">
        Recent threads
      </h2>
      <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
        {threads.map((t) => (
          <li key={`${t.agentId}|${t.userId}|${t.threadId}`}>
            <Link href={threadHref(t)} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-3 py-2 text-sm hover:bg-slate-50 dark:hover:bg-slate-900">
              <span className="min-w-0 font-medium break-all">{t.threadId}</span>
              <span className="min-w-0 break-all text-slate-600 dark:text-slate-400">account {t.userId ?? "—"}</span>
              <span className="min-w-0 break-all text-slate-600 dark:text-slate-400">agent {t.agentId}</span>
              <span className="text-slate-600 dark:text-slate-400">
                {t.messages} messages · {t.runs} runs
              </span>
              <span className="ml-auto text-xs text-slate-500">
                <LocalTime iso={t.lastAt} />
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
