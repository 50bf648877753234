// Agent, account, thread and text filters for the traces page: a plain GET form, so a filtered
// view is a shareable URL. The agent field writes the console's one agent parameter, the one
// the switcher reads.
import { AGENT_PARAM } from "@/lib/console/links";
import { SEARCH_MAX } from "@/lib/traces/pages/traces";

type Props = { agentId: string; userId: string; threadId: string; search: string; agents: { id: string; name: string }[] };

export function TraceFilters({ agentId, userId, threadId, search, agents }: Props) {
  const input =
    "mt-1 block w-full min-w-0 rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-950";
  const label = "block min-w-0 text-xs font-medium text-slate-600 dark:text-slate-400";
  return (
    <form method="get" action="/traces" role="search" className="mb-6 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_1fr_1.5fr_auto] lg:items-end">
      <label className={label}>
        Agent
        <select name={AGENT_PARAM} defaultValue={agentId} className={input}>
          <option value="">Any agent</option>
          {agents.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name} ({a.id})
            </option>
          ))}
          {agentId && !agents.some((a) => a.id === agentId) ? <option value={agentId}>{agentId}</option> : null}
        </select>
      </label>
      <label className={label}>
        Account (user_id)
        <input name="user_id" defaultValue={userId} maxLength={128} className={input} />
      </label>
      <label className={label}>
        Thread
        <input name="thread_id" defaultValue={threadId} maxLength={128} className={input} />
      </label>
      <label className={label}>
        Search
        <input name="q" type="search" defaultValue={search} maxLength={SEARCH_MAX} placeholder="thread, account or query text" className={input} />
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
