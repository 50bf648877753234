// The summary strip: version, status, pending, evidence, changes, undos, reflections, failures,
// last review and (when the host supports it) daily review.
import type { MonitorView, Signal } from "@/lib/persona/monitor";
import type { PersonaState } from "@/lib/persona/types";
import { LocalTime } from "@/components/ui/local-time";

const SIGNAL: Record<Signal, string> = {
  good: "text-emerald-700 dark:text-emerald-300",
  bad: "text-red-700 dark:text-red-300",
  warn: "text-amber-700 dark:text-amber-300",
  "": "",
};

export function SummaryTape({ state, view }: { state: PersonaState; view: MonitorView }) {
  const daily = state.daily_enabled ? (state.paused ? "Paused" : "On") : "Off";
  const cells: [string, React.ReactNode, string?][] = [
    ["Approach", `v${state.persona.version}`],
    ["Status", view.status, SIGNAL[view.statusSignal]],
    ["Pending", String(view.pending ? 1 : 0)],
    ["Evidence", String(view.evidence)],
    ["Changes", String(view.changes)],
    ["Undone", String(view.undos)],
    ["Reflections", String(view.reviews)],
    ["Failed", String(view.failedReviews), view.failedReviews ? SIGNAL.bad : ""],
    ["Last review", <LocalTime key="lr" iso={state.last_review_at} fallback="Not yet" />],
    ["Daily review", daily],
  ];
  return (
    <dl aria-label="Summary" className="grid grid-cols-2 gap-px overflow-hidden rounded-lg border border-slate-200 bg-slate-200 sm:grid-cols-5 dark:border-slate-800 dark:bg-slate-800">
      {cells.map(([label, value, cls]) => (
        <div key={label} className="min-w-0 bg-white px-3 py-2 dark:bg-slate-950">
          <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
          <dd className={`truncate text-sm font-semibold ${cls ?? ""}`}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
