// What an empty list means and what to do next.
export function EmptyState({ title, children, action }: { title: string; children?: React.ReactNode; action?: React.ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 px-6 py-10 text-center dark:border-slate-700">
      <h2 className="text-base font-semibold">{title}</h2>
      {children ? <div className="mx-auto mt-2 max-w-2xl text-sm text-slate-600 dark:text-slate-400">{children}</div> : null}
      {action ? <div className="mt-4 flex justify-center">{action}</div> : null}
    </div>
  );
}
