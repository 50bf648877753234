// The agent the console is looking at, read the same way on the server (page loaders) and in
// the browser (the switcher, the sidebar): an agent's own pages (/agents/<id>/…) are scoped to
// it; elsewhere the `agent` query parameter (or its alias) says which. Browser-safe.
import { AGENT_PARAM, AGENT_PARAM_ALIASES, agentHref } from "./links";
import { param, type SearchParams } from "./url";

type Query = { get(name: string): string | null };

/** Request header the proxy sets on page requests (the path and query asked for): the console frame reads the scope from it. */
export const CONSOLE_URL_HEADER = "x-console-url";

const AGENT_PATH = /^\/agents\/([^/]+)(\/.*)?$/;

/** Parameters that open one record of the agent in scope (a thread, a skill, a class): another agent's view drops them. */
const RECORD_PARAMS = ["thread_id", "root_trace_id", "skill", "class", "class_agent", "class_user", "runs_page"];

/** The agent named by the path of an agent's own pages, else null. */
function agentOfPath(pathname: string): string | null {
  const m = AGENT_PATH.exec(pathname);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return null;
  }
}

/** The scoped agent of a URL: the path's, else the query's (any accepted spelling), else "". */
export function scopedAgent(pathname: string, search: Query): string {
  return agentOfPath(pathname) ?? [AGENT_PARAM, ...AGENT_PARAM_ALIASES].map((k) => search.get(k)).find((v) => v) ?? "";
}

/** The server-side reading of the agent scope from a page's search parameters. */
export function agentParam(sp: SearchParams): string | undefined {
  return [AGENT_PARAM, ...AGENT_PARAM_ALIASES].map((k) => param(sp, k)?.trim()).find((v) => v);
}

/**
 * Where choosing `next` ("" for all agents) in the switcher leads from this URL: an agent's
 * page to the same page of the other agent (the list when none); a run page (one agent's
 * record) to the runs list; any other page to itself with the scope replaced, paging reset and
 * the open record closed.
 */
export function switchAgentHref(pathname: string, search: Query & { toString(): string }, next: string): string {
  const m = AGENT_PATH.exec(pathname);
  if (m) return next ? `${agentHref(next)}${m[2] ?? ""}` : "/agents";
  const base = pathname.startsWith("/workflows/runs/") ? "/workflows/runs" : pathname;
  const q = new URLSearchParams(base === pathname ? search.toString() : "");
  for (const k of ["page", ...AGENT_PARAM_ALIASES, ...RECORD_PARAMS]) q.delete(k);
  if (next) q.set(AGENT_PARAM, next);
  else q.delete(AGENT_PARAM);
  const s = q.toString();
  return s ? `${base}?${s}` : base;
}
