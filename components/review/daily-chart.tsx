// The class's last 30 days: one bar per UTC day, successes over failures, the success rate
// on hover. Scales to its container (no fixed width).
import type { DailyPoint } from "@/lib/learning/review/class-detail";

const W = 300, H = 80, GAP = 2;

export function DailyChart({ points }: { points: DailyPoint[] }) {
  const max = Math.max(1, ...points.map((p) => p.executions));
  const bw = W / points.length - GAP;
  const runs = points.reduce((a, p) => a + p.executions, 0);
  const ok = points.reduce((a, p) => a + p.successes, 0);
  const summary = runs ? `${runs} runs in ${points.length} days, ${Math.round((ok / runs) * 100)}% succeeded` : `No runs in the last ${points.length} days`;
  return (
    <figure>
      <svg viewBox={`0 0 ${W} ${H + 12}`} className="h-28 w-full" role="img" aria-label={summary} preserveAspectRatio="none">
        {points.map((p, i) => {
          const x = i * (W / points.length) + GAP / 2;
          const h = (p.executions / max) * H;
          const hs = (p.successes / max) * H;
          const rate = p.executions ? `${Math.round((p.successes / p.executions) * 100)}%` : "no runs";
          return (
            <g key={p.day}>
              <title>{`${p.day}: ${p.successes}/${p.executions} succeeded (${rate})`}</title>
              <rect x={x} y={0} width={bw} height={H} className="fill-transparent" />
              {p.executions ? <rect x={x} y={H - h} width={bw} height={h - hs} className="fill-red-400 dark:fill-red-500" /> : null}
              {p.successes ? <rect x={x} y={H - hs} width={bw} height={hs} className="fill-emerald-500 dark:fill-emerald-400" /> : null}
              {!p.executions ? <rect x={x} y={H - 1} width={bw} height={1} className="fill-slate-300 dark:fill-slate-700" /> : null}
            </g>
          );
        })}
      </svg>
      <figcaption className="mt-1 flex justify-between text-xs text-slate-500 dark:text-slate-400">
        <span>{points[0]?.day}</span>
        <span>{summary}</span>
        <span>{points[points.length - 1]?.day}</span>
      </figcaption>
    </figure>
  );
}
