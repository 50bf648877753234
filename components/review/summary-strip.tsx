// A row of headline figures (the "tape"): label, value, optional hover detail.
export type Figure = { label: string; value: React.ReactNode; title?: string };

export function SummaryStrip({ figures, label }: { figures: Figure[]; label: string }) {
  return (
    <dl aria-label={label} className="mb-6 grid grid-cols-2 gap-px overflow-hidden rounded-lg border border-slate-200 bg-slate-200 sm:grid-cols-4 xl:grid-cols-8 dark:border-slate-800 dark:bg-slate-800">
      {figures.map((f) => (
        <div key={f.label} className="min-w-0 bg-white px-3 py-2 dark:bg-slate-950" title={f.title}>
          <dt className="truncate text-xs text-slate-500 dark:text-slate-400">{f.label}</dt>
          <dd className="truncate text-lg font-semibold tabular-nums">{f.value}</dd>
        </div>
      ))}
    </dl>
  );
}
