// Shown the moment a console link is followed, until the next page's server render arrives: a
// page that takes a moment should not look like a click that did nothing.
export default function ConsoleLoading() {
  return (
    <div role="status" aria-live="polite" aria-busy="true" className="space-y-4">
      <div className="fixed inset-x-0 top-0 z-50 h-0.5 overflow-hidden bg-indigo-100 dark:bg-indigo-950">
        <div className="h-full w-1/3 animate-[console-loading_1s_ease-in-out_infinite] bg-indigo-500" />
      </div>
      <span className="sr-only">Loading…</span>
      <div className="h-7 w-64 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
      <div className="h-4 w-96 max-w-full animate-pulse rounded bg-slate-100 dark:bg-slate-900" />
      <div className="h-48 animate-pulse rounded-lg bg-slate-100 dark:bg-slate-900" />
    </div>
  );
}
