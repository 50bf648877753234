"use client";
// The trajectory classes of the current page. Rows select the class shown in the detail
// panel (URL state); j/k move, c copies the selected class's hash, / focuses the filter.
// In a narrow container the numeric columns fold into the first cell, so nothing scrolls sideways.
import type { ClassRowView } from "@/lib/learning/pages/workflows";
import { LocalTime } from "../ui/local-time";
import { ClassStatusBadge } from "./class-status-badge";
import { GateChips } from "./gate-chips";
import { SelectableTr, SelectLink } from "./selectable-row";
import { useUrlSelection } from "./selection";
import { SortTh, thClass, type SortHeader } from "./sort-header";
import { pct } from "./styles";
import { formatNumber } from "@/lib/text/format";

export type { ClassRowView };


export function ClassesTable({ rows, selected, headers, showAgent }: { rows: ClassRowView[]; selected: string | null; headers: SortHeader[]; showAgent: boolean }) {
  const sel = useUrlSelection({ rows, selected, detailId: "class-detail", filterId: "class-filter", copyValue: (r) => r.hash, copyLabel: "Hash" });
  const head = (key: string) => headers.find((h) => h.key === key)!;
  return (
    <div className="@container relative rounded-lg border border-slate-200 dark:border-slate-800" aria-busy={sel.loading || undefined}>
      <table className="w-full table-fixed divide-y divide-slate-200 text-sm dark:divide-slate-800">
        <caption className="sr-only">Trajectory classes</caption>
        <thead className="bg-slate-50 dark:bg-slate-900">
          <tr>
            <SortTh h={head("tools")} className="w-auto" />
            {showAgent ? <SortTh h={head("agent")} className="hidden w-28 @3xl:table-cell" /> : null}
            <SortTh h={head("status")} className="hidden w-32 @xl:table-cell" />
            <SortTh h={head("runs")} className="hidden w-16 text-right @xl:table-cell" />
            <SortTh h={head("success")} className="hidden w-20 text-right @xl:table-cell" />
            <SortTh h={head("queries")} className="hidden w-20 text-right @2xl:table-cell" />
            <th scope="col" className={`${thClass} hidden w-40 @xl:table-cell`}>Gates</th>
            <SortTh h={head("last_seen")} className="hidden w-32 @4xl:table-cell" />
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 bg-white dark:divide-slate-800 dark:bg-slate-950">
          {rows.map((r) => {
            const current = r.key === sel.selectedKey;
            return (
              <SelectableTr key={r.key} row={r} status={r.status} current={current}>
                <td className="px-3 py-2 align-top">
                  <SelectLink row={r} current={current} onPick={sel.onPick} className="block font-mono text-xs">
                    {r.toolPath}
                  </SelectLink>
                  <div className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-500 dark:text-slate-400">
                    <code title={r.hash}>{r.hash.slice(0, 12)}</code>
                    {r.userId ? <span className="break-all">user {r.userId}</span> : r.distinctUsers ? <span className="hidden @xl:inline">{formatNumber(r.distinctUsers)} accounts</span> : null}
                    {showAgent ? <span className="@3xl:hidden">{r.agentName}</span> : null}
                  </div>
                  <div className="mt-1.5 space-y-1.5 @xl:hidden">
                    <div className="flex flex-wrap items-center gap-2 text-xs">
                      <ClassStatusBadge status={r.status} />
                      <span className="tabular-nums">
                        {r.executions} runs · {pct(r.successRate)} · {r.distinctQueries} queries{r.distinctUsers ? ` · ${r.distinctUsers} accounts` : ""}
                      </span>
                    </div>
                    <GateChips gates={r.gates} />
                  </div>
                </td>
                {showAgent ? (
                  <td className="hidden px-3 py-2 align-top text-xs break-words @3xl:table-cell" title={r.agentId}>
                    {r.agentName}
                  </td>
                ) : null}
                <td className="hidden px-3 py-2 align-top @xl:table-cell">
                  <ClassStatusBadge status={r.status} />
                </td>
                <td className="hidden px-3 py-2 text-right align-top tabular-nums @xl:table-cell">{formatNumber(r.executions)}</td>
                <td className="hidden px-3 py-2 text-right align-top tabular-nums @xl:table-cell">{pct(r.successRate)}</td>
                <td className="hidden px-3 py-2 text-right align-top tabular-nums @2xl:table-cell">{formatNumber(r.distinctQueries)}</td>
                <td className="hidden px-3 py-2 align-top @xl:table-cell">
                  <GateChips gates={r.gates} />
                </td>
                <td className="hidden px-3 py-2 align-top text-xs @4xl:table-cell">
                  <LocalTime iso={r.lastSeen} />
                </td>
              </SelectableTr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
