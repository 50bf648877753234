"use client";
// The skills of the current page. Rows select the skill shown in the detail view (URL
// state); j/k move, c copies the selected skill's SKILL.md, / focuses the filter. In a
// narrow container the numbers fold into the first cell. Rows of one procedure (canonical hash)
// are grouped under a header with their count, each naming its account; reviewers check rows
// (x, or a group's box) and decide them together (./bulk-review.tsx).
import type { SkillRowView } from "@/lib/learning/pages/skills";
import { Badge } from "../ui/badge";
import { LocalTime } from "../ui/local-time";
import { SortTh, thClass, type SortHeader } from "./sort-header";
import { SelectableTr, SelectLink } from "./selectable-row";
import { useUrlSelection } from "./selection";
import { pct, shortHash } from "./styles";
import { useBulkReview } from "./bulk-review";
import { formatNumber } from "@/lib/text/format";

export type { SkillRowView };

/** The page's rows by procedure, in the order each procedure first appears. */
function byProcedure(rows: SkillRowView[]): SkillRowView[][] {
  const groups = new Map<string, SkillRowView[]>();
  for (const r of rows) groups.set(r.procedure, [...(groups.get(r.procedure) ?? []), r]);
  return [...groups.values()];
}

type TableProps = { rows: SkillRowView[]; selected: string | null; selectedContent: string | null; headers: SortHeader[]; canDecide?: boolean };

export function SkillsTable({ rows, selected, selectedContent, headers, canDecide = false }: TableProps) {
  const sel = useUrlSelection({
    rows,
    selected,
    detailId: "skill-detail",
    filterId: "skill-filter",
    // The body loads with the detail: copy it once the selection has arrived.
    copyValue: (r) => (r.key === selected ? selectedContent : null),
    copyLabel: "SKILL.md",
    // Called at key time, after `bulk` below exists.
    keys: canDecide ? { x: () => bulk.keys.x(), a: () => bulk.keys.a(), r: () => bulk.keys.r() } : undefined,
  });
  const bulk = useBulkReview(rows, sel.selectedKey);
  const head = (key: string) => headers.find((h) => h.key === key)!;
  const showAgent = rows.some((r) => r.showAgent);
  const columns = showAgent ? 10 : 9;
  return (
    <>
    {canDecide && rows.some((r) => r.decidable) ? bulk.bar : null}
    <div className="@container relative rounded-lg border border-slate-200 dark:border-slate-800" aria-busy={sel.loading || bulk.pending || undefined}>
      <table className="w-full table-fixed divide-y divide-slate-200 text-sm dark:divide-slate-800">
        <caption className="sr-only">Skills</caption>
        <thead className="bg-slate-50 dark:bg-slate-900">
          <tr>
            <SortTh h={head("name")} />
            <SortTh h={head("lifecycle")} className="hidden w-28 @xl:table-cell" />
            {showAgent ? <th scope="col" className={`${thClass} hidden w-28 @3xl:table-cell`}>Agent</th> : null}
            <th scope="col" className={`${thClass} hidden w-24 @2xl:table-cell`}>Authority</th>
            <th scope="col" className={`${thClass} hidden w-40 @4xl:table-cell`}>Tools</th>
            <SortTh h={head("activations")} className="hidden w-28 text-right @xl:table-cell" />
            <SortTh h={head("success")} className="hidden w-24 text-right @xl:table-cell" />
            <SortTh h={head("deviations")} className="hidden w-28 text-right @3xl:table-cell" />
            <th scope="col" className={`${thClass} hidden w-28 @2xl:table-cell`}>Shadow</th>
            <SortTh h={head("listed")} className="hidden w-32 @4xl:table-cell" />
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 bg-white dark:divide-slate-800 dark:bg-slate-950">
          {byProcedure(rows).map((group) => [
            group.length > 1 ? (
              <tr key={`procedure:${group[0].procedure}`} data-procedure={group[0].procedure} className="bg-slate-50 dark:bg-slate-900">
                <td colSpan={columns} className="px-3 py-1.5 text-xs text-slate-700 dark:text-slate-300">
                  {canDecide && group.some((r) => r.decidable) ? (
                    <input
                      type="checkbox"
                      className="mr-2 align-middle"
                      aria-label={`Select the ${group.filter((r) => r.decidable).length} undecided skills of procedure ${shortHash(group[0].procedure)}`}
                      checked={group.filter((r) => r.decidable).every((r) => bulk.checked.has(r.key))}
                      onChange={(e) => bulk.toggle(group.filter((r) => r.decidable).map((r) => r.key), e.target.checked)}
                    />
                  ) : null}
                  Procedure <code>{shortHash(group[0].procedure)}</code> · {formatNumber(group.length)} skills on this page ·{" "}
                  {formatNumber(new Set(group.map((r) => r.account ?? "")).size)} accounts
                </td>
              </tr>
            ) : null,
            ...group.map((r) => {
            const current = r.key === sel.selectedKey;
            const shadow = r.shadow ? (
              <span className="text-xs">
                {r.shadow.ready ? <Badge tone="green">Ready</Badge> : <Badge tone="gray">Not ready</Badge>} <span className="text-slate-500">{r.shadow.observations} obs</span>
              </span>
            ) : (
              <span className="text-slate-500 dark:text-slate-400">—</span>
            );
            return (
              <SelectableTr key={r.key} row={r} status={r.status} current={current}>
                <td className="px-3 py-2 align-top">
                  {canDecide && r.decidable ? (
                    <input
                      type="checkbox"
                      className="mr-2 align-middle"
                      aria-label={`Select ${r.name} v${r.version}${r.account ? ` of account ${r.account}` : ""}`}
                      checked={bulk.checked.has(r.key)}
                      onChange={() => bulk.toggle([r.key])}
                    />
                  ) : null}
                  <SelectLink row={r} current={current} onPick={sel.onPick} className="font-medium">
                    {r.name}
                  </SelectLink>{" "}
                  <span className="text-xs text-slate-500">v{r.version}</span>
                  {r.account ? <span className="ml-1 text-xs text-slate-600 dark:text-slate-400" data-testid="skill-account">· account {r.account}</span> : null}
                  {r.marks ? <span className="ml-1 rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900 dark:bg-amber-950 dark:text-amber-200">{r.marks}</span> : null}
                  <div className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-500 dark:text-slate-400 @2xl:hidden">
                    <span className="@xl:hidden"><Badge status={r.status} /></span>
                    <span>{r.authority}</span>
                    {r.showAgent ? <span>{r.agentName}</span> : null}
                    <span className="tabular-nums @xl:hidden">
                      {r.activations} activations · {pct(r.successRate)} · {r.deviations} deviations
                    </span>
                    {r.shadow ? shadow : null}
                  </div>
                </td>
                <td className="hidden px-3 py-2 align-top @xl:table-cell"><Badge status={r.status} /></td>
                {showAgent ? <td className="hidden px-3 py-2 align-top text-xs break-words @3xl:table-cell">{r.agentName}</td> : null}
                <td className="hidden px-3 py-2 align-top text-xs @2xl:table-cell">{r.authority}</td>
                <td className="hidden px-3 py-2 align-top font-mono text-xs break-words @4xl:table-cell">{r.tools.join(", ")}</td>
                <td className="hidden px-3 py-2 text-right align-top tabular-nums @xl:table-cell">{formatNumber(r.activations)}</td>
                <td className="hidden px-3 py-2 text-right align-top tabular-nums @xl:table-cell">{pct(r.successRate)}</td>
                <td className="hidden px-3 py-2 text-right align-top tabular-nums @3xl:table-cell">{formatNumber(r.deviations)}</td>
                <td className="hidden px-3 py-2 align-top @2xl:table-cell">{shadow}</td>
                <td className="hidden px-3 py-2 align-top text-xs @4xl:table-cell"><LocalTime iso={r.listedAt} /></td>
              </SelectableTr>
            );
            }),
          ])}
        </tbody>
      </table>
    </div>
    </>
  );
}
