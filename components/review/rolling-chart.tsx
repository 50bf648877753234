// An active skill's rolling success over its recent activations (the drift window) against
// the baseline frozen at promotion and the demotion threshold (baseline − delta).
const W = 300, H = 80;

export function RollingChart({ outcomes, baseline, delta }: { outcomes: boolean[]; baseline: number | null; delta: number }) {
  const rolling = outcomes.map((_, i) => outcomes.slice(0, i + 1).filter(Boolean).length / (i + 1));
  const y = (r: number) => H - r * H;
  const x = (i: number) => (outcomes.length > 1 ? (i / (outcomes.length - 1)) * W : W / 2);
  const last = rolling[rolling.length - 1];
  const label = outcomes.length
    ? `Rolling success ${Math.round(last * 100)}% over the last ${outcomes.length} activations${baseline !== null ? `, baseline ${Math.round(baseline * 100)}%` : ""}`
    : "No activations yet";
  return (
    <figure>
      <svg viewBox={`0 0 ${W} ${H}`} className="h-24 w-full overflow-visible" role="img" aria-label={label} preserveAspectRatio="none">
        <rect x={0} y={0} width={W} height={H} className="fill-slate-50 dark:fill-slate-900" />
        {baseline !== null ? (
          <>
            <line x1={0} x2={W} y1={y(baseline)} y2={y(baseline)} className="stroke-slate-500" strokeDasharray="4 3" vectorEffect="non-scaling-stroke" />
            <line x1={0} x2={W} y1={y(Math.max(0, baseline - delta))} y2={y(Math.max(0, baseline - delta))} className="stroke-red-400" strokeDasharray="2 3" vectorEffect="non-scaling-stroke" />
          </>
        ) : null}
        {rolling.length ? (
          <polyline points={rolling.map((r, i) => `${x(i)},${y(r)}`).join(" ")} className="fill-none stroke-indigo-600 dark:stroke-indigo-400" strokeWidth={2} vectorEffect="non-scaling-stroke" />
        ) : null}
      </svg>
      <figcaption className="mt-1 text-xs text-slate-500 dark:text-slate-400">
        {label}. Dashed: frozen baseline; red: demotion threshold (baseline − {delta}).
      </figcaption>
    </figure>
  );
}
