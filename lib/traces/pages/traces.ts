// The Traces page: its filters from the URL (agent scope, account, thread, text search, `after`:
// the last thread of the page before), then either one keyset page of threads with their count or one thread's timeline, with the agent
// filter's options. The search text travels in the URL only; it is never logged. A long thread
// opens at its latest events (`events`: how many of the newest are shown, 50 more per step).
import "server-only";
import type { Db } from "../../db/prisma";
import { agentOptions } from "../../learning/review/agent-list";
import { agentParam } from "../../console/agent-scope";
import { AGENT_PARAM } from "../../console/links";
import { hrefWith, param, type SearchParams } from "../../console/url";
import { cursorParam, encodeCursor, type Cursor } from "../../console/keyset";
import { validAccountId } from "../../persona/action-body";
import { listThreads, threadTimeline, THREAD_CURSOR_KEYS, THREADS_PAGE_SIZE, TIMELINE_LIMIT, type TimelineEvent } from "../timeline";

/** A usable filter value, or "" (absent, repeated, blank, too long or unstorable text). */
const filterValue = (v: string | undefined) => (typeof v === "string" ? (validAccountId(v.trim()) ?? "") : "");

export const SEARCH_MAX = 200;

/** Events of a thread shown at first, and added by each "Show earlier events". */
export const TIMELINE_PAGE = 50;
/** At most every event a timeline reads (TIMELINE_LIMIT of each of its three kinds). */
const SHOWN_MAX = TIMELINE_LIMIT * 3;

export type TracesFilters = { agentId: string; userId: string; threadId: string; rootTraceId: string; search: string; after: Cursor | null; shown: number };

function shownParam(sp: SearchParams): number {
  const n = Number(param(sp, "events"));
  return Number.isInteger(n) && n > TIMELINE_PAGE ? Math.min(n, SHOWN_MAX) : TIMELINE_PAGE;
}

/** The newest `shown` events, reaching back to the focused root trace's when it is older. */
export function latestWindow(events: TimelineEvent[], shown: number, rootTraceId: string): { events: TimelineEvent[]; earlier: number } {
  let start = Math.max(0, events.length - shown);
  const focus = rootTraceId ? events.findIndex((e) => e.rootTraceId === rootTraceId) : -1;
  if (focus >= 0 && focus < start) start = focus;
  return { events: events.slice(start), earlier: start };
}

export function tracesFilters(sp: SearchParams): TracesFilters & { path: string } {
  const f = {
    agentId: filterValue(agentParam(sp)),
    userId: filterValue(param(sp, "user_id")),
    threadId: filterValue(param(sp, "thread_id")),
    rootTraceId: filterValue(param(sp, "root_trace_id")),
    search: (param(sp, "q") ?? "").trim().slice(0, SEARCH_MAX),
    after: cursorParam(sp, THREAD_CURSOR_KEYS),
    shown: shownParam(sp),
  };
  return { ...f, path: tracesHref(f, {}) };
}

/** This view's address with `changes` applied (the canonical spelling: `agent`, never its alias). */
export function tracesHref(f: TracesFilters, changes: Record<string, string | number | null>): string {
  const current = { [AGENT_PARAM]: f.agentId, user_id: f.userId, thread_id: f.threadId, root_trace_id: f.rootTraceId, q: f.search, after: f.after ? encodeCursor(f.after) : "", events: f.shown === TIMELINE_PAGE ? "" : String(f.shown) };
  return hrefWith("/traces", current, changes);
}

export async function loadTracesPage(db: Db, f: TracesFilters) {
  const filter = { ...(f.agentId ? { agentId: f.agentId } : {}), ...(f.userId ? { userId: f.userId } : {}) };
  const [agents, list, timeline] = await Promise.all([
    agentOptions(db),
    f.threadId ? null : listThreads(db, { ...filter, search: f.search || undefined }, { after: f.after, pageSize: THREADS_PAGE_SIZE }),
    f.threadId ? threadTimeline(db, { ...filter, threadId: f.threadId }) : Promise.resolve(null),
  ]);
  return { agents, list, timeline: timeline ? { ...timeline, ...latestWindow(timeline.events, f.shown, f.rootTraceId), total: timeline.events.length } : null };
}
