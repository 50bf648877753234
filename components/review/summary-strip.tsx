// A row of headline figures (the "tape"): label, value, optional hover detail.
/** `small`: a long value (a time) in smaller type that may wrap rather than be cut off. */
export type Figure = { label: string; value: React.ReactNode; title?: string; small?: boolean };

export function SummaryStrip({ figures, label }: { figures: Figure[]; label: string }) {
  return (
    <dl aria-label={label} className="mb-6 grid grid-cols-[repeat(auto-fill,minmax(8.5rem,1fr))] overflow-hidden rounded-lg border-t border-l border-slate-200 dark:border-slate-800">
      {figures.map((f) => (
        <div key={f.label} className="min-w-0 border-r border-b border-slate-200 bg-white px-3 py-2 dark:border-slate-800 dark:bg-slate-950" title={f.title}>
          <dt className="truncate text-xs text-slate-500 dark:text-slate-400">{f.label}</dt>
          <dd className={f.small ? "py-1 text-sm font-medium [&_time]:whitespace-normal" : "truncate text-lg font-semibold tabular-nums"}>{f.value}</dd>
        </div>
      ))}
    </dl>
  );
}
