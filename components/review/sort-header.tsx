// A sortable column header: a link to the same list sorted by this column (URL state).
import Link from "@/components/ui/link";
import type { SortHeader } from "@/lib/console/url";

export type { SortHeader };

/** Headers wrap rather than spill into the next column of a fixed-layout table. */
export const thClass = "px-3 py-2 text-left align-bottom text-xs font-medium break-words text-slate-600 dark:text-slate-300";

export function SortTh({ h, className = "" }: { h: SortHeader; className?: string }) {
  return (
    <th scope="col" aria-sort={h.active ? (h.active === "asc" ? "ascending" : "descending") : undefined} className={`${thClass} ${className}`}>
      <Link href={h.href} scroll={false} className="inline-flex flex-wrap items-center gap-x-1 rounded hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:text-white">
        {h.label}
        <span aria-hidden>{h.active ? (h.active === "asc" ? "↑" : "↓") : "↕"}</span>
      </Link>
    </th>
  );
}
