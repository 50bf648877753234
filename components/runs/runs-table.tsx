// Runs (workflows) as a server-paginated table; each row links to the run's steps.
import { Badge } from "../ui/badge";
import { DataTable, Pagination, hrefWith, type SearchParams } from "../ui/table";
import { LocalTime } from "../ui/local-time";
import { EmptyListPage } from "../ui/empty-state";
import { outcomeSourceLabel } from "@/lib/learning/capture/outcome-source";
import type { RunSummary } from "@/lib/learning/review/run-list";
import { AccountLinks, AgentLink, RunLink } from "../links/record-link";

type Props = {
  runs: RunSummary[];
  total: number;
  /** The total is a capped count ("10,000+"). */
  capped?: boolean;
  page: number;
  pageSize: number;
  dir: "asc" | "desc";
  path: string;
  searchParams: SearchParams;
  showAgent?: boolean;
  empty: React.ReactNode;
};

export function RunsTable({ runs, total, capped, page, pageSize, dir, path, searchParams, showAgent = true, empty }: Props) {
  return (
    <>
      <DataTable
        caption="Runs"
        rows={runs}
        rowKey={(r) => r.id}
        rowLink
        empty={page > 1 && total > 0 ? <EmptyListPage noun="runs" page={page} total={total} firstPageHref={hrefWith(path, searchParams, { page: null })} /> : empty}
        sort={{ key: "created_at", dir, href: (_key, d) => hrefWith(path, searchParams, { dir: d, page: null }) }}
        columns={[
          { key: "created_at", header: "Time", sortable: true, cell: (r) => <LocalTime iso={r.createdAt} /> },
          {
            key: "run",
            header: "Run",
            cell: (r) => <RunLink id={r.id} main>{r.workflowId}</RunLink>,
          },
          ...(showAgent
            ? [{ key: "agent", header: "Agent", cell: (r: RunSummary) => <AgentLink id={r.agentId} /> }]
            : []),
          { key: "query", header: "Query", className: "min-w-[14rem] max-w-md", cell: (r) => <span className="line-clamp-2 break-words">{r.query || "—"}</span> },
          { key: "user", header: "User", cell: (r) => (r.userId ? <AccountLinks userId={r.userId} agentId={r.agentId} /> : <span className="text-slate-500 dark:text-slate-400">—</span>) },
          { key: "steps", header: "Steps", className: "text-right tabular-nums", cell: (r) => r.stepCount },
          {
            key: "outcome",
            header: "Outcome",
            cell: (r) => (
              <span className="flex flex-wrap items-center gap-1">
                <Badge status={r.outcome.toLowerCase()} />
                <span className="text-xs text-slate-500">{outcomeSourceLabel(r.outcomeSource)}</span>
                {r.learningError ? <Badge tone="amber">learning error</Badge> : null}
              </span>
            ),
          },
        ]}
      />
      {runs.length > 0 ? <Pagination page={page} pageSize={pageSize} total={total} capped={capped} href={(p) => hrefWith(path, searchParams, { page: p })} /> : null}
    </>
  );
}
