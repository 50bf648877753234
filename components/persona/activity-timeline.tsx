"use client";
// One timeline of the pending suggestion, changes, undos and reflections. Selecting a row
// opens it in the detail pane; chips filter by kind. Keys: j/k move, t opens the trace, /
// jumps to the account lookup (never while typing in a field).
import { Badge } from "@/components/ui/badge";
import { LocalTime } from "@/components/ui/local-time";
import type { MonitorRow, MonitorView } from "@/lib/persona/monitor";

type Props = {
  view: MonitorView;
  rows: MonitorRow[];
  selected: string | null;
  filter: string | null;
  onSelect: (key: string) => void;
  onFilter: (tag: string | null) => void;
};

export function ActivityTimeline({ view, rows, selected, filter, onSelect, onFilter }: Props) {
  const chip = (active: boolean) =>
    `rounded-full px-2.5 py-1 text-xs font-medium ring-1 ring-inset ${
      active ? "bg-indigo-600 text-white ring-indigo-600" : "text-slate-700 ring-slate-300 hover:bg-slate-100 dark:text-slate-300 dark:ring-slate-700 dark:hover:bg-slate-800"
    }`;
  return (
    <section aria-labelledby="pe-activity" className="@container min-w-0">
      <div className="mb-2 flex flex-wrap items-center gap-2">
        <h2 id="pe-activity" className="mr-auto text-base font-semibold">
          Activity
        </h2>
        <button type="button" className={chip(filter === null)} aria-pressed={filter === null} onClick={() => onFilter(null)}>
          All
        </button>
        {view.chips.map((c) => (
          <button key={c.tag} type="button" className={chip(filter === c.tag)} aria-pressed={filter === c.tag} onClick={() => onFilter(c.tag)}>
            {`${c.label} ${c.count}`}
          </button>
        ))}
      </div>
      {rows.length === 0 ? (
        <p className="rounded-md border border-dashed border-slate-300 p-4 text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400">
          No reflections or changes yet. Reflect now reviews the account&apos;s recent messages; nothing changes until you approve.
        </p>
      ) : (
        <ol className="divide-y divide-slate-200 overflow-hidden rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
          <li aria-hidden className="hidden @4xl:grid-cols-[8rem_8.5rem_3.5rem_1fr_4rem_9rem_7rem] gap-2 bg-slate-50 px-3 py-2 text-xs font-semibold text-slate-500 @4xl:grid dark:bg-slate-900 dark:text-slate-400">
            <span>When</span>
            <span>Activity</span>
            <span>Version</span>
            <span>Reason</span>
            <span>Evidence</span>
            <span>By</span>
            <span>Status</span>
          </li>
          {rows.map((r) => (
            <li key={r.key}>
              <button
                type="button"
                data-row={r.key}
                aria-pressed={selected === r.key}
                onClick={() => onSelect(r.key)}
                className={`grid w-full min-w-0 grid-cols-[1fr_auto] gap-x-2 gap-y-1 px-3 py-2 text-left text-sm focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-500 @4xl:grid-cols-[8rem_8.5rem_3.5rem_1fr_4rem_9rem_7rem] ${
                  selected === r.key ? "bg-indigo-50 dark:bg-indigo-950/50" : "hover:bg-slate-50 dark:hover:bg-slate-900"
                }`}
              >
                <span className="text-xs text-slate-500 @4xl:text-sm dark:text-slate-400">
                  <LocalTime iso={r.timestamp} />
                </span>
                <span className="order-first col-span-2 font-medium @4xl:order-none @4xl:col-span-1">{r.kindLabel}</span>
                <span className="hidden @4xl:inline">{r.version !== null ? `v${r.version}` : "—"}</span>
                <span className="col-span-2 min-w-0 truncate text-slate-700 @4xl:col-span-1 dark:text-slate-300">{r.summary || "—"}</span>
                <span className="hidden @4xl:inline">{r.evidenceCount ?? "—"}</span>
                <span className="hidden min-w-0 truncate @4xl:inline">{r.actor || "—"}</span>
                <span className="col-start-2 row-start-2 justify-self-end @4xl:col-auto @4xl:row-auto @4xl:justify-self-start">
                  <Badge tone={r.tone}>{r.statusLabel}</Badge>
                </span>
              </button>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
