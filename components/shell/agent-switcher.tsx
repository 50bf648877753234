"use client";
// Chooses the agent the console is looking at. The choice lives in the URL (?agent=, or the
// path on an agent's own pages) so it survives reloads and can be shared; "All agents" removes it.
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { scopedAgent, switchAgentHref } from "@/lib/console/agent-scope";
import { usePageAgent } from "./page-agent";

/** The scope the server rendered the frame for: the page's path and its agent (a run page's is its run's). */
export type ServerScope = { pathname: string; agent: string };

/**
 * The agent in scope: the URL's, or the one a record's page declared, or (while on the page
 * the server rendered) the server's reading, which knows a run page's agent before any effect
 * runs; "" for all agents.
 */
export function useScopedAgent(server: ServerScope): string {
  const pathname = usePathname();
  const search = useSearchParams();
  const declared = usePageAgent();
  return scopedAgent(pathname, search) || declared || (pathname === server.pathname ? server.agent : "");
}

export function AgentSwitcher({ agents, selected }: { agents: { id: string; name: string }[]; selected: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
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
