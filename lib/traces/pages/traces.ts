// The Traces page: its filters from the URL, then either the recent threads or one thread's
// timeline, with the agent filter's options.
import "server-only";
import type { Db } from "../../db/prisma";
import { agentOptions } from "../../console/agents";
import type { SearchParams } from "../../console/url";
import { validAccountId } from "../../persona/action-body";
import { listThreads, threadTimeline } from "../timeline";

/** A usable filter value, or "" (absent, repeated, blank, too long or unstorable text). */
const filterValue = (v: string | string[] | undefined) => (typeof v === "string" ? (validAccountId(v.trim()) ?? "") : "");

export type TracesFilters = { agentId: string; userId: string; threadId: string; rootTraceId: string };

export function tracesFilters(sp: SearchParams): TracesFilters & { path: string } {
  const f = { agentId: filterValue(sp.agent_id), userId: filterValue(sp.user_id), threadId: filterValue(sp.thread_id), rootTraceId: filterValue(sp.root_trace_id) };
  const q = new URLSearchParams(Object.entries({ agent_id: f.agentId, user_id: f.userId, thread_id: f.threadId }).filter(([, v]) => v));
  return { ...f, path: `/traces${q.size ? `?${q.toString()}` : ""}` };
}

export async function loadTracesPage(db: Db, { agentId, userId, threadId }: TracesFilters) {
  const filter = { ...(agentId ? { agentId } : {}), ...(userId ? { userId } : {}) };
  const [agents, threads, timeline] = await Promise.all([
    agentOptions(db),
    threadId ? Promise.resolve([]) : listThreads(db, filter),
    threadId ? threadTimeline(db, { ...filter, threadId }) : Promise.resolve(null),
  ]);
  return { agents, threads, timeline };
}
