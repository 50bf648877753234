"use client";
// Chooses the agent the console is looking at. The choice lives in the URL (?agent=, or the
// path on an agent's own pages) so it survives reloads and can be shared; "All agents" removes it.
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { scopedAgent, switchAgentHref } from "@/lib/console/agent-scope";
import { usePageAgent } from "./page-agent";

/** The agent in scope: the URL's, or the one a record's page declared; "" for all agents. */
export function useScopedAgent(): string {
  const pathname = usePathname();
  const search = useSearchParams();
  const declared = usePageAgent();
  return scopedAgent(pathname, search) || declared || "";
}

export function AgentSwitcher({ agents }: { agents: { id: string; name: string }[] }) {
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  const selected = useScopedAgent();
  return (
    <label className="flex min-w-0 items-center gap-2 text-sm">
      <span className="sr-only sm:not-sr-only sm:text-slate-500 dark:sm:text-slate-400">Agent</span>
      <select
        value={selected}
        onChange={(e) => router.push(switchAgentHref(pathname, search, e.target.value))}
        className="max-w-[11rem] min-w-0 truncate rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-indigo-500 sm:max-w-[16rem] dark:border-slate-700 dark:bg-slate-900"
      >
        <option value="">All agents</option>
        {agents.map((a) => (
          <option key={a.id} value={a.id}>
            {a.name === a.id ? a.id : `${a.name} (${a.id})`}
          </option>
        ))}
        {selected && !agents.some((a) => a.id === selected) ? <option value={selected}>{selected}</option> : null}
      </select>
    </label>
  );
}
