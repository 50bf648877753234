// Agent, account and thread filters for the traces page: a plain GET form, so a filtered
// view is a shareable URL.
export function TraceFilters({ agentId, userId, threadId, agents }: { agentId: string; userId: string; threadId: string; agents: { id: string; name: string }[] }) {
  const input =
    "mt-1 block w-full min-w-0 rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-950";
  return (
    <form method="get" action="/traces" role="search" className="mb-6 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_1fr_auto] lg:items-end">
      <label className="block min-w-0 text-xs font-medium text-slate-600 dark:text-slate-400">
        Agent
        <select name="agent_id" defaultValue={agentId} className={input}>
          <option value="">Any agent</option>
          {agents.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name} ({a.id})
            </option>
          ))}
          {agentId && !agents.some((a) => a.id === agentId) ? <option value={agentId}>{agentId}</option> : null}
        </select>
      </label>
      <label className="block min-w-0 text-xs font-medium text-slate-600 dark:text-slate-400">
        Account (user_id)
        <input name="user_id" defaultValue={userId} maxLength={128} className={input} />
      </label>
      <label className="block min-w-0 text-xs font-medium text-slate-600 dark:text-slate-400">
        Thread
        <input name="thread_id" defaultValue={threadId} maxLength={128} className={input} />
      </label>
      <button
        type="submit"
        className="rounded-md bg-indigo-600 px-3.5 py-2 text-sm font-medium text-white hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
      >
        Show traces
      </button>
    </form>
  );
}
