// The agent's shadow evaluation queue: depth, jobs dropped at the bound, dead jobs (admins can
// retry or dismiss them) and the evaluation rate. Dead jobs show ids and error kinds only, never run text.
import Link from "@/components/ui/link";
import type { ShadowQueueStatus } from "@/lib/learning/shadow/queue-status";
import { RATE_MINUTES } from "@/lib/learning/shadow/queue-status";
import { LocalTime } from "../ui/local-time";
import { FactGrid } from "../ui/fact-grid";
import { DeadJobActions } from "../jobs/dead-job-actions";
import { runHref } from "@/lib/console/links";
import { formatNumber } from "@/lib/text/format";

const link = "rounded text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-300";

type Props = { agentId: string; status: ShadowQueueStatus; enabled: boolean; queueSize: number; canRetry: boolean };

export function ShadowQueue({ agentId, status: s, enabled, queueSize, canRetry }: Props) {
  const facts: [string, string][] = [
    ["Queue depth", `${formatNumber(s.pending)} / ${formatNumber(queueSize)}${s.running ? ` (+${s.running} running)` : ""}`],
    ["Dropped (queue full)", formatNumber(s.dropped)],
    ["Dead jobs", formatNumber(s.deadCount)],
    [`Evaluations per minute (last ${RATE_MINUTES} min)`, s.evaluationsPerMinute.toFixed(1)],
  ];
  return (
    <section aria-labelledby="shadow-queue" className="mt-8">
      <h2 id="shadow-queue" className="mb-2 text-sm font-semibold text-slate-700 dark:text-slate-300">
        Shadow evaluation
      </h2>
      {enabled ? null : <p className="mb-2 text-sm text-slate-500">Passive evaluation is off for this agent: new runs are not queued.</p>}
      <FactGrid facts={facts} className="grid-cols-2 rounded-lg border border-slate-200 px-3 py-2 sm:grid-cols-4 dark:border-slate-800" valueClassName="font-mono" />
      {s.dropped ? (
        <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
          Dropped: runs that arrived while {formatNumber(queueSize)} evaluations were already waiting, so they were stored but not compared with shadow skills (readiness counts fewer observations).
          If it keeps growing, raise <em>Evaluation queue size</em> (<code>shadow_evaluation_queue_size</code>) in{" "}
          <Link href={`/agents/${encodeURIComponent(agentId)}/settings#settings-shadow`} className={link}>
            this agent&apos;s settings
          </Link>
          .
        </p>
      ) : null}
      {s.dead.length ? (
        <ul aria-label="Dead jobs" className="mt-2 divide-y divide-slate-100 rounded-lg border border-slate-200 text-sm dark:divide-slate-800 dark:border-slate-800">
          {s.dead.map((j) => (
            <li key={j.id} className="flex flex-wrap items-center gap-2 px-3 py-2">
              <code>{`job ${j.id}`}</code>
              {j.runId ? (
                <Link href={runHref(j.runId)} className={link}>
                  run
                </Link>
              ) : null}
              <span className="text-xs text-slate-500">
                {j.attempts} attempts · <LocalTime iso={j.finishedAt} />
              </span>
              <span className="min-w-0 flex-1 truncate text-xs text-red-700 dark:text-red-300" title={j.lastError ?? ""}>
                {j.lastError}
              </span>
              {canRetry ? <DeadJobActions select={{ job_id: j.id }} what={`job ${j.id}`} /> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
