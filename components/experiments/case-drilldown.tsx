// Per case: its request, expectations and arm order, then one row per arm (means over
// repetitions) and the reported runs under it. Experiment runs have no run page (they are not
// workflows), so each run's own figures, tools and answer are shown here.
import type { ExperimentReport, ReportRow } from "@/lib/experiments/report";
import { figure } from "./format";

const cols = ["workflow_accuracy", "answer_accuracy", "combined_accuracy", "total_tokens", "llm_calls", "inference_ms", "end_to_end_ms"] as const;
const td = "px-2 py-1 text-right tabular-nums";

export function CaseDrilldown({ report: r }: { report: ExperimentReport }) {
  const unit = (k: string) => r.metrics.find((m) => m.key === k)!.unit;
  const label = (k: string) => r.metrics.find((m) => m.key === k)!.label;
  return (
    <div className="space-y-2">
      {r.cases.map((c) => {
        const rows = r.rows.filter((x) => x.case_id === c.case_id);
        return (
          <details key={c.case_id} id={`case-${c.case_id}`} className="rounded-lg border border-slate-200 dark:border-slate-800">
            <summary className="cursor-pointer px-3 py-2 text-sm">
              <span className="font-mono">{c.case_id}</span> · order {c.arm_order.join(" > ")} · {rows.reduce((n, x) => n + x.reported, 0)} runs reported ·{" "}
              {rows.map((x) => `${x.arm} ${figure(x.figures?.combined_accuracy, "rate")}`).join(" · ")}
            </summary>
            <div className="space-y-3 border-t border-slate-200 p-3 text-sm dark:border-slate-800">
              <p className="whitespace-pre-wrap break-words">{c.request}</p>
              <p className="text-xs text-slate-600 dark:text-slate-400">
                Expected path: {c.expected_tools ? c.expected_tools.join(" → ") : "none declared"} · expected answer ({c.answer_match}): {c.expected_answer ?? "none declared"}
                {c.user_id ? ` · user ${c.user_id}` : ""}
              </p>
              <div role="region" aria-label={`Runs of case ${c.case_id}`} tabIndex={0} className="overflow-x-auto focus-visible:outline-2 focus-visible:outline-indigo-500">
                <table className="w-full text-xs">
                  <thead className="text-slate-500">
                    <tr>
                      <th className="px-2 py-1 text-left font-medium">Arm / run</th>
                      {cols.map((k) => <th key={k} className="px-2 py-1 text-right font-medium">{label(k)}</th>)}
                      <th className="px-2 py-1 text-left font-medium">Tools and answer</th>
                    </tr>
                  </thead>
                  <tbody>{rows.flatMap((x) => armRows(x, unit))}</tbody>
                </table>
              </div>
            </div>
          </details>
        );
      })}
    </div>
  );
}

function armRows(x: ReportRow, unit: (k: string) => "rate" | "tokens" | "calls" | "ms") {
  return [
    <tr key={x.arm} className="border-t border-slate-100 font-medium dark:border-slate-800" data-arm={x.arm}>
      <td className="px-2 py-1">{x.arm} (mean of {x.reported})</td>
      {cols.map((k) => <td key={k} className={td}>{figure(x.figures?.[k], unit(k))}</td>)}
      <td />
    </tr>,
    ...x.runs.map((run) => (
      <tr key={`${x.arm}:${run.repetition}`} className="text-slate-600 dark:text-slate-400">
        <td className="px-2 py-1 pl-5">repetition {run.repetition}{run.raw_workflow_ids.length ? ` · ${run.raw_workflow_ids.length} raw workflows` : ""}{run.developer_message ? " · developer message" : ""}</td>
        {cols.map((k) => <td key={k} className={td}>{figure(run.figures[k], unit(k))}</td>)}
        <td className="max-w-md px-2 py-1 break-words">{run.tools.join(" → ") || "no tool call"} · {run.answer ?? "no answer"}</td>
      </tr>
    )),
  ];
}
