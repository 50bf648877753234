// The Workflows → Trajectory classes page's view model: the class list with its chips and sort
// headers, the selected class with its runs, the summary, the promotion reports and (across
// all agents) the roll-up per agent. Independent reads run in parallel: the reports and a
// class selected in the URL do not wait for the list.
import "server-only";
import type { Db } from "../../db/prisma";
import { hrefWith, type Chip, type SearchParams, type SortHeader } from "../../console/url";
import type { Gate } from "../classes/class-gates";
import { classStatusCountsByAgent, listReviewClasses, totalCounts, type ReviewClassList } from "../review/class-list";
import { getClassDetail, listClassRuns, resolveClassKey, type ClassDetail, type ClassKey, type ClassRun } from "../review/class-detail";
import { classQuerySchema, defaultDir, type ClassQuery, type ClassSort } from "../review/class-query";
import { latestReports } from "../review/reports";
import { agentRollup, workflowSummary } from "../review/summary";
import { CLASS_STATUSES, CLASS_STATUS_LABEL, type ClassStatus } from "../review/status";

export const WORKFLOWS_PATH = "/workflows";
export const RUNS_PAGE = 10;
export const REPORTS_PAGE = 5;
export const AGENTS_PAGE = 10;
/** Changing what the table shows keeps the selection but returns to its first page. */
const LIST_RESET = { page: null } as const;

const SORT_LABEL: Record<ClassSort, string> = { tools: "Tool path", agent: "Agent", status: "Status", runs: "Runs", success: "Success", queries: "Queries", last_seen: "Last seen" };

export type ClassRowView = {
  key: string;
  selectHref: string;
  agentId: string;
  agentName: string;
  userId: string | null;
  hash: string;
  toolPath: string;
  status: ClassStatus;
  executions: number;
  successRate: number | null;
  distinctQueries: number;
  distinctUsers: number;
  gates: Gate[];
  lastSeen: string;
};

/** Agent ids and hashes never contain "|"; the user scope (any text) comes last. */
const rowKey = (k: ClassKey) => `${k.agentId}|${k.canonicalHash}|${k.userScope}`;

/** The class selected in the URL, or else the list's first row, with a page of its runs. */
async function selectedClass(db: Db, q: ClassQuery, list: Promise<ReviewClassList>, now: Date): Promise<{ detail: ClassDetail | null; runs: ClassRun[] }> {
  const classAgent = q.class_agent ?? q.agent;
  const first = q.class && classAgent ? null : (await list).rows[0];
  const key = q.class && classAgent
    ? await resolveClassKey(db, classAgent, q.class, q.class_user)
    : first
      ? { agentId: first.agentId, userScope: first.userScope, canonicalHash: first.canonicalHash }
      : null;
  if (!key) return { detail: null, runs: [] };
  const [detail, runs] = await Promise.all([getClassDetail(db, key, now), listClassRuns(db, key, q.runs_page, RUNS_PAGE)]);
  return { detail, runs: detail ? runs : [] };
}

export async function loadWorkflowsPage(db: Db, sp: SearchParams, now: Date = new Date()) {
  const q = classQuerySchema.parse(sp);
  const listing = listReviewClasses(db, q, now);
  const totals = listing.then(async (list) => {
    // The summary and the roll-up count every class; the list's counts are under the text filter.
    const byAgent = q.q ? await classStatusCountsByAgent(db, list.agents, undefined, now) : list.countsByAgent;
    const countsAll = totalCounts(byAgent);
    const [summary, rollup] = await Promise.all([
      workflowSummary(db, list.agents, countsAll),
      q.agent ? Promise.resolve(null) : agentRollup(db, list.agents, byAgent, q.agents_page, AGENTS_PAGE),
    ]);
    return { countsAll, summary, rollup };
  });
  const [list, { detail, runs }, { countsAll, summary, rollup }, reports] = await Promise.all([
    listing,
    selectedClass(db, q, listing, now),
    totals,
    latestReports(db, q.agent, q.reports_page, REPORTS_PAGE),
  ]);

  const agentName = (id: string) => list.agents.find((a) => a.id === id)?.name ?? id;
  const rows: ClassRowView[] = list.rows.map((r) => ({
    key: rowKey(r),
    selectHref: hrefWith(WORKFLOWS_PATH, sp, { class: r.canonicalHash, class_agent: r.agentId, class_user: r.userScope || null, runs_page: null }),
    agentId: r.agentId,
    agentName: r.agentName,
    userId: r.userScope || null,
    hash: r.canonicalHash,
    toolPath: r.tools.join(" → ") || "(no steps recorded)",
    status: r.status,
    executions: r.executions,
    successRate: r.executions ? r.successes / r.executions : null,
    distinctQueries: r.distinctQueries,
    distinctUsers: r.distinctUsers,
    gates: r.gates,
    lastSeen: r.lastSeen.toISOString(),
  }));
  const currentDir = q.dir ?? defaultDir(q.sort);
  const headers: SortHeader[] = (Object.keys(SORT_LABEL) as ClassSort[]).map((k) => ({
    key: k,
    label: SORT_LABEL[k],
    active: q.sort === k ? currentDir : null,
    href: hrefWith(WORKFLOWS_PATH, sp, { ...LIST_RESET, sort: k, dir: q.sort === k ? (currentDir === "asc" ? "desc" : "asc") : defaultDir(k) }),
  }));
  const chips: Chip[] = [
    { value: null, label: "All", count: CLASS_STATUSES.reduce((a, s) => a + list.counts[s], 0), href: hrefWith(WORKFLOWS_PATH, sp, { ...LIST_RESET, status: null }) },
    ...CLASS_STATUSES.map((s) => ({ value: s, label: CLASS_STATUS_LABEL[s], count: list.counts[s], href: hrefWith(WORKFLOWS_PATH, sp, { ...LIST_RESET, status: s }) })),
  ];

  return {
    q,
    hasAgents: list.agents.length > 0,
    summary,
    countsAll,
    rows,
    total: list.total,
    headers,
    chips,
    detail,
    runs,
    selectedKey: detail ? rowKey(detail.key) : null,
    reports: { items: reports.reports.map((data) => ({ data, agentName: q.agent ? undefined : agentName(data.report.agent_id) })), total: reports.total },
    rollup,
  };
}
