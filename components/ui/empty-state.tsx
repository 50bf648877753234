// What an empty list means and what to do next.
import { formatNumber } from "@/lib/text/format";
export function EmptyState({ title, children, action }: { title: string; children?: React.ReactNode; action?: React.ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 px-6 py-10 text-center dark:border-slate-700">
      <h2 className="text-base font-semibold">{title}</h2>
      {children ? <div className="mx-auto mt-2 max-w-2xl text-sm text-slate-600 dark:text-slate-400">{children}</div> : null}
      {action ? <div className="mt-4 flex justify-center">{action}</div> : null}
    </div>
  );
}

/**
 * An empty page of a filtered, paginated list: past the last page (an old link, a hand-edited
 * URL) says so and links back; otherwise nothing matches the filter.
 */
export function EmptyListPage({ noun, page, total, firstPageHref }: { noun: string; page: number; total: number; firstPageHref: string }) {
  if (page > 1 && total > 0) {
    return (
      <EmptyState title={`Page ${formatNumber(page)} is past the last page`} action={<a href={firstPageHref} className="rounded text-sm text-indigo-700 underline focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-300">Go to page 1</a>}>
        There are {formatNumber(total)} {noun} in this view.
      </EmptyState>
    );
  }
  return <EmptyState title={`No ${noun} match this filter`}>Clear the filter box or choose All to see every one.</EmptyState>;
}
