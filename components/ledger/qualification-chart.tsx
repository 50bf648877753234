// The running mean improvement and its Hoeffding lower bound as qualification cases arrived,
// against min_improvement. Inline SVG rendered on the server; the decision happens at n = trials.
import type { SeriesPoint } from "@/lib/ledger/console";

const W = 640;
const H = 240;
const PAD = { left: 44, right: 16, top: 12, bottom: 32 };

export function QualificationChart({ points, trials, minImprovement }: { points: SeriesPoint[]; trials: number; minImprovement: number }) {
  if (points.length === 0) {
    return <p className="text-sm text-slate-600 dark:text-slate-400">No qualification cases yet: the chart starts with the first paired evaluation.</p>;
  }
  const x = (n: number) => PAD.left + (n / trials) * (W - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + ((1 - v) / 2) * (H - PAD.top - PAD.bottom);
  const line = (pick: (p: SeriesPoint) => number) => points.map((p) => `${x(p.n).toFixed(1)},${y(pick(p)).toFixed(1)}`).join(" ");
  const last = points[points.length - 1];
  const summary = `After ${last.n} of ${trials} cases: running mean improvement ${last.mean_improvement.toFixed(3)}, lower bound ${last.lower_bound.toFixed(3)}, min_improvement ${minImprovement}.`;
  return (
    <figure>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={summary} className="w-full max-w-3xl text-slate-500">
        <title>{summary}</title>
        {[-1, -0.5, 0, 0.5, 1].map((v) => (
          <g key={v}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} stroke="currentColor" strokeOpacity={v === 0 ? 0.5 : 0.15} />
            <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end" fontSize="11" fill="currentColor">
              {v}
            </text>
          </g>
        ))}
        <line x1={x(trials)} x2={x(trials)} y1={PAD.top} y2={H - PAD.bottom} stroke="currentColor" strokeDasharray="4 3" />
        <text x={x(trials)} y={H - 8} textAnchor="end" fontSize="11" fill="currentColor">
          decision at n = {trials}
        </text>
        <text x={PAD.left} y={H - 8} fontSize="11" fill="currentColor">
          n = 0
        </text>
        <line x1={PAD.left} x2={W - PAD.right} y1={y(minImprovement)} y2={y(minImprovement)} className="stroke-emerald-600" strokeDasharray="6 4" />
        <polyline points={line((p) => p.mean_improvement)} fill="none" className="stroke-indigo-600 dark:stroke-indigo-400" strokeWidth="2" />
        <polyline points={line((p) => p.lower_bound)} fill="none" className="stroke-amber-600 dark:stroke-amber-400" strokeWidth="2" />
      </svg>
      <figcaption className="mt-2 flex flex-wrap gap-4 text-xs text-slate-600 dark:text-slate-400">
        <span><span className="mr-1 inline-block h-0.5 w-4 bg-indigo-600 align-middle" />running mean improvement</span>
        <span><span className="mr-1 inline-block h-0.5 w-4 bg-amber-600 align-middle" />lower bound at that n (clamped at −1)</span>
        <span><span className="mr-1 inline-block h-0.5 w-4 border-t-2 border-dashed border-emerald-600 align-middle" />min_improvement {minImprovement}</span>
      </figcaption>
    </figure>
  );
}
