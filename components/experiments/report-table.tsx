// The seed's table: one row per metric, one column per arm (the mean of its case means), and per
// treatment arm its paired delta from the baseline with the bootstrap 95 % interval.
import type { ExperimentReport } from "@/lib/experiments/report";
import { figure, signed } from "./format";

const th = "px-3 py-2 text-left text-xs font-medium text-slate-600 dark:text-slate-400";
const td = "px-3 py-2 text-right tabular-nums";

export function ReportTable({ report: r }: { report: ExperimentReport }) {
  const treatments = r.aggregates.filter((a) => a.arm !== r.experiment.baseline_arm);
  return (
    <div role="region" aria-label="Figures per arm" tabIndex={0} className="overflow-x-auto rounded-lg border border-slate-200 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-800">
      <table className="w-full text-sm">
        <caption className="sr-only">Figures per arm and deltas from the baseline</caption>
        <thead className="bg-slate-50 dark:bg-slate-900">
          <tr>
            <th scope="col" className={th}>Metric</th>
            {r.aggregates.map((a) => (
              <th key={a.arm} scope="col" className={`${th} text-right`}>
                {a.arm}
                <span className="block font-normal">{a.mode}{a.arm === r.experiment.baseline_arm ? " · baseline" : ""} · {a.reported} runs</span>
              </th>
            ))}
            {treatments.map((t) => (
              <th key={t.arm} scope="col" className={`${th} text-right`}>
                Δ {t.arm}
                <span className="block font-normal">95 % interval</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {r.metrics.map((m) => (
            <tr key={m.key}>
              <th scope="row" className="px-3 py-2 text-left font-medium">{m.label}</th>
              {r.aggregates.map((a) => (
                <td key={a.arm} className={td}>{figure(a.figures[m.key], m.unit)}</td>
              ))}
              {treatments.map((t) => {
                const d = r.deltas.find((x) => x.arm === t.arm && x.metric === m.key);
                return (
                  <td key={t.arm} className={td}>
                    {signed(d?.delta, m.unit)}
                    <span className="block text-xs text-slate-500">{d?.interval ? `[${signed(d.interval.low, m.unit)}, ${signed(d.interval.high, m.unit)}]` : d?.pairs ? "one pair: no interval" : "no pairs"}</span>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
