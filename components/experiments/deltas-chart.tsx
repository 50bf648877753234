// Each treatment's delta from the baseline on the rate metrics (accuracies and prompt rates,
// −100 to +100 percentage points on one axis), a dot with its bootstrap 95 % interval. Token and
// latency deltas have other units: the table shows them. Inline SVG rendered on the server.
import type { ExperimentReport } from "@/lib/experiments/report";
import { signed } from "./format";

const W = 720;
const ROW = 22;
const PAD = { left: 210, right: 40, top: 10, bottom: 30 };
const COLORS = ["fill-indigo-600 stroke-indigo-600", "fill-amber-600 stroke-amber-600", "fill-emerald-600 stroke-emerald-600", "fill-rose-600 stroke-rose-600"];

export function DeltasChart({ report: r }: { report: ExperimentReport }) {
  const metrics = r.metrics.filter((m) => m.unit === "rate");
  const arms = [...new Set(r.deltas.map((d) => d.arm))];
  const group = arms.length * ROW + 8;
  const H = PAD.top + metrics.length * group + PAD.bottom;
  const x = (v: number) => PAD.left + ((v + 1) / 2) * (W - PAD.left - PAD.right);
  const shown = r.deltas.filter((d) => d.delta !== null && metrics.some((m) => m.key === d.metric));
  if (shown.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-400">No deltas yet: they need a case reported in the baseline and a treatment arm.</p>;
  const summary = shown.map((d) => `${d.arm} ${d.metric} ${signed(d.delta, "rate")}`).join("; ");
  return (
    <figure>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`Deltas from ${r.experiment.baseline_arm}: ${summary}`} className="w-full max-w-4xl text-slate-500">
        <title>Deltas from the baseline with 95 % intervals</title>
        {[-1, -0.5, 0, 0.5, 1].map((v) => (
          <g key={v}>
            <line x1={x(v)} x2={x(v)} y1={PAD.top} y2={H - PAD.bottom} stroke="currentColor" strokeOpacity={v === 0 ? 0.6 : 0.15} />
            <text x={x(v)} y={H - 10} textAnchor="middle" fontSize="11" fill="currentColor">{v > 0 ? `+${v * 100}` : v * 100} pp</text>
          </g>
        ))}
        {metrics.map((m, i) => (
          <g key={m.key}>
            <text x={PAD.left - 8} y={PAD.top + i * group + group / 2 + 4} textAnchor="end" fontSize="12" fill="currentColor">{m.label}</text>
            {arms.map((arm, j) => {
              const d = r.deltas.find((z) => z.arm === arm && z.metric === m.key);
              if (!d || d.delta === null) return null;
              const y = PAD.top + i * group + 4 + j * ROW + ROW / 2;
              const color = COLORS[j % COLORS.length];
              return (
                <g key={arm} className={color}>
                  {d.interval ? <line x1={x(d.interval.low)} x2={x(d.interval.high)} y1={y} y2={y} strokeWidth="2" /> : null}
                  <circle cx={x(d.delta)} cy={y} r="4" />
                </g>
              );
            })}
          </g>
        ))}
      </svg>
      <figcaption className="mt-2 flex flex-wrap gap-4 text-xs text-slate-600 dark:text-slate-400">
        {arms.map((arm, j) => (
          <span key={arm}>
            <svg width="12" height="12" className={`mr-1 inline ${COLORS[j % COLORS.length]}`} aria-hidden="true"><circle cx="6" cy="6" r="4" /></svg>
            {arm} − {r.experiment.baseline_arm}
          </span>
        ))}
        <span>line: paired bootstrap 95 % interval (seed {r.experiment.bootstrap_seed})</span>
      </figcaption>
    </figure>
  );
}
