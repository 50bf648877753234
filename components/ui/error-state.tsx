// A failure the user can read: what went wrong and, when there is one, a way out.
export function ErrorState({ title = "Something went wrong", message, action }: { title?: string; message?: string; action?: React.ReactNode }) {
  return (
    <div role="alert" className="rounded-lg border border-red-300 bg-red-50 px-6 py-8 text-center dark:border-red-900 dark:bg-red-950/40">
      <h2 className="text-base font-semibold text-red-800 dark:text-red-300">{title}</h2>
      {message ? <p className="mt-2 text-sm text-red-700 dark:text-red-300/90">{message}</p> : null}
      {action ? <div className="mt-4 flex justify-center">{action}</div> : null}
    </div>
  );
}
