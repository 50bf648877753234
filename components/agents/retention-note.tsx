// What an agent keeps and for how long (README "Forgetting and retention"), one sentence each for runs and conversations,
// from its own settings or the instance defaults.
import { effectiveRetention, retentionDefaultsFromEnv } from "@/lib/learning/monitor/retention";
import { formatNumber } from "@/lib/text/format";

const span = (days: number) => (days === 1 ? "1 day" : `${formatNumber(days)} days`);

export function RetentionNote({ learning }: { learning: Record<string, unknown> }) {
  const defaults = retentionDefaultsFromEnv();
  const keep = effectiveRetention(learning, defaults);
  const from = (own: unknown) => (own === null || own === undefined ? "the instance default" : "this agent's setting");
  return (
    <section aria-label="Retention" className="mt-3 space-y-1 rounded-lg border border-slate-200 px-3 py-2 text-sm text-slate-700 dark:border-slate-800 dark:text-slate-300">
      <p>
        {keep.runDays === null
          ? "Runs are kept whole (query, steps, answer), with no retention limit."
          : `Runs keep their query, steps and answer for ${span(keep.runDays)} (${from(learning.run_retention_days)}); after that only their outcome, time and trajectory hash stay, so gates, baselines and drift windows are unchanged.`}
      </p>
      <p>
        {keep.conversationDays === null
          ? "Conversation messages are kept with no retention limit."
          : `Conversation messages are deleted after ${span(keep.conversationDays)} (${from(learning.conversation_retention_days)}).`}
      </p>
    </section>
  );
}
