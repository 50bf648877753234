// Server-paginated tables whose page, sort and filters live in the URL. No hooks: pages
// render them on the server and every control is a plain link.
import Link from "@/components/ui/link";
import { formatNumber, pluralise } from "@/lib/text/format";

export { hrefWith, param, type SearchParams } from "@/lib/console/url";
export type SortDir = "asc" | "desc";

export type Column<T> = {
  key: string;
  header: React.ReactNode;
  /** Rendered as a sort link when the table has `sort`. */
  sortable?: boolean;
  className?: string;
  cell: (row: T) => React.ReactNode;
};

type TableProps<T> = {
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  /** An element id per row, so a link can land on it (`…#<id>`, highlighted while targeted). */
  rowId?: (row: T) => string;
  caption?: string;
  sort?: { key: string; dir: SortDir; href: (key: string, dir: SortDir) => string };
  empty?: React.ReactNode;
  /** The row's main link carries `data-row-main`: a click anywhere on the row follows it (app/globals.css). */
  rowLink?: boolean;
};

export function DataTable<T>({ columns, rows, rowKey, rowId, caption, sort, empty, rowLink }: TableProps<T>) {
  if (rows.length === 0 && empty) return <>{empty}</>;
  return (
    // A region of its own, reachable by keyboard: a wide table scrolls inside it, not the page
    // (relative: its screen-reader-only labels, absolutely placed, scroll with it too).
    <div role="region" aria-label={caption ?? "Table"} tabIndex={0} className="relative overflow-x-auto rounded-lg border border-slate-200 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-800">
      <table className="min-w-full divide-y divide-slate-200 text-sm dark:divide-slate-800">
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        <thead className="bg-slate-50 dark:bg-slate-900">
          <tr>
            {columns.map((c) => {
              const active = sort?.key === c.key;
              const ariaSort = active ? (sort!.dir === "asc" ? "ascending" : "descending") : undefined;
              return (
                <th key={c.key} scope="col" aria-sort={ariaSort} className={`px-3 py-2 text-left font-medium whitespace-nowrap text-slate-600 dark:text-slate-300 ${c.className ?? ""}`}>
                  {sort && c.sortable ? (
                    <Link
                      href={sort.href(c.key, active && sort.dir === "desc" ? "asc" : "desc")}
                      className="inline-flex items-center gap-1 rounded hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:text-white"
                    >
                      {c.header}
                      <span aria-hidden>{active ? (sort.dir === "asc" ? "↑" : "↓") : "↕"}</span>
                    </Link>
                  ) : (
                    c.header
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 bg-white dark:divide-slate-800 dark:bg-slate-950">
          {rows.map((row) => (
            <tr key={rowKey(row)} id={rowId?.(row)} data-row-link={rowLink || undefined} className="scroll-mt-20 align-top hover:bg-slate-50 target:bg-indigo-50 dark:hover:bg-slate-900/60 dark:target:bg-indigo-950">
              {columns.map((c) => (
                <td key={c.key} className={`px-3 py-2 ${c.className ?? ""}`}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Pagination({ page, pageSize, total, capped = false, href }: { page: number; pageSize: number; total: number; capped?: boolean; href: (page: number) => string }) {
  // A capped count ("10,000+") only says more pages follow.
  const pages = Math.max(1, Math.ceil(total / pageSize), capped ? page + 1 : 0);
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  // An old link or a hand-edited URL past the end: say so, and offer the last page.
  const past = !capped && first > total;
  const link = "rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-700 dark:hover:bg-slate-800";
  const off = "rounded-md border border-slate-200 px-3 py-1.5 text-sm text-slate-500 dark:border-slate-800 dark:text-slate-400";
  return (
    <nav aria-label="Pagination" className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm text-slate-600 dark:text-slate-400">
      {past ? (
        <p>
          Page {formatNumber(page)} is past the last page: {countLabel(total, false)} in {pluralise(pages, "page")}.
        </p>
      ) : (
        <p>
          {formatNumber(first)}–{formatNumber(capped ? page * pageSize : last)} of {countLabel(total, capped)} · page {formatNumber(page)}
          {capped ? "" : ` of ${formatNumber(pages)}`}
        </p>
      )}
      <div className="flex gap-2">
        {past ? (
          <Link href={href(pages)} className={link}>
            Last page
          </Link>
        ) : page > 1 ? (
          <Link href={href(page - 1)} className={link} rel="prev">
            Previous
          </Link>
        ) : (
          <span className={off} aria-disabled>
            Previous
          </span>
        )}
        {page < pages ? (
          <Link href={href(page + 1)} className={link} rel="next">
            Next
          </Link>
        ) : (
          <span className={off} aria-disabled>
            Next
          </span>
        )}
      </div>
    </nav>
  );
}

/** A count as a list shows it: "10,000+" when counting stopped at the cap. */
export const countLabel = (total: number, capped: boolean) => `${formatNumber(total)}${capped ? "+" : ""}`;

/**
 * Keyset paging (lib/console/keyset.ts): how many rows match, a link back to the first page and
 * one to the rows after this page's last.
 */
export function KeysetPagination({ total, capped, firstHref, nextHref }: { total: number; capped: boolean; firstHref: string | null; nextHref: string | null }) {
  const link = "rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-700 dark:hover:bg-slate-800";
  const off = "rounded-md border border-slate-200 px-3 py-1.5 text-sm text-slate-500 dark:border-slate-800 dark:text-slate-400";
  return (
    <nav aria-label="Pagination" className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm text-slate-600 dark:text-slate-400">
      <p>{countLabel(total, capped)} in all</p>
      <div className="flex gap-2">
        {firstHref ? (
          <Link href={firstHref} className={link} rel="first">
            First page
          </Link>
        ) : (
          <span className={off} aria-disabled>
            First page
          </span>
        )}
        {nextHref ? (
          <Link href={nextHref} className={link} rel="next">
            Next
          </Link>
        ) : (
          <span className={off} aria-disabled>
            Next
          </span>
        )}
      </div>
    </nav>
  );
}
