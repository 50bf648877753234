"use client";
// A row of a review list that selects its item (classes, skills): highlighted while current,
// and its link puts the selection in the URL (replacing history, keeping the scroll).
import Link from "@/components/ui/link";
import type { ReactNode } from "react";
import type { SelectableRow } from "./selection";

export function SelectableTr({ row, status, current, children }: { row: SelectableRow; status: string; current: boolean; children: ReactNode }) {
  return (
    <tr data-row-key={row.key} data-status={status} data-row-link className={current ? "bg-indigo-50 dark:bg-indigo-950/50" : "hover:bg-slate-50 dark:hover:bg-slate-900/60"}>
      {children}
    </tr>
  );
}

export function SelectLink<R extends SelectableRow>(props: { row: R; current: boolean; onPick: (row: R) => void; className: string; children: ReactNode }) {
  return (
    <Link
      href={props.row.selectHref}
      replace
      scroll={false}
      onClick={() => props.onPick(props.row)}
      aria-current={props.current ? "true" : undefined}
      data-row-main
      className={`rounded break-words text-slate-900 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-slate-100 ${props.className}`}
    >
      {props.children}
    </Link>
  );
}
