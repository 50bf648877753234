// Evidence ledger → procedures (admins only): every proposed procedure with its qualification
// progress and monitoring health. Server-paginated; filters and page live in the URL.
import Link from "@/components/ui/link";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyListPage, EmptyState } from "@/components/ui/empty-state";
import { Badge } from "@/components/ui/badge";
import { FilterBar } from "@/components/ui/filter-bar";
import { LocalTime } from "@/components/ui/local-time";
import { DataTable, Pagination, hrefWith, type SearchParams } from "@/components/ui/table";
import { fixed, Progress } from "@/components/ledger/figures";
import { procedureHref } from "@/components/ledger/links";
import { requireScope } from "@/lib/auth/page-access";
import { readDb } from "@/lib/db/client";
import { PAGE_SIZE, type ProcedureSummary } from "@/lib/ledger/console";
import { loadProceduresPage } from "@/lib/ledger/pages/procedures";
import { PROCEDURE_STATES } from "@/lib/ledger/types";

export const dynamic = "force-dynamic";

/** Long ids and labels wrap at word boundaries, and mid-word only when one word is wider than the cell. */
const cellText = "block max-w-[14rem] wrap-break-word text-xs";

export default async function LedgerPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  await requireScope(hrefWith("/ledger", sp, {}), "ledger:read");
  const { q, rows, total, skills, filtered } = await loadProceduresPage(await readDb(), sp);
  return (
    <>
      <PageHeader
        title="Evidence ledger"
        description="Procedures proposed by agents, qualified by paired evaluations against a one-sided Hoeffding bound at a fixed number of trials, then monitored and suspended after a streak of failures. Evaluators write through the API; this page is read-only."
      />
      <FilterBar
        key={JSON.stringify(sp)}
        fields={[
          { name: "tenant", label: "Tenant", type: "text" },
          { name: "agent", label: "Agent", type: "text" },
          { name: "environment", label: "Environment", type: "text" },
          { name: "task", label: "Task", type: "text" },
          { name: "state", label: "State", type: "select", options: PROCEDURE_STATES.map((s) => ({ value: s, label: s })) },
        ]}
      />
      <DataTable<ProcedureSummary>
        caption="Ledger procedures"
        rows={rows}
        rowKey={(p) => JSON.stringify([p.scope.tenant, p.scope.agent, p.scope.environment, p.id])}
        rowLink
        empty={
          q.page > 1 && total > 0 ? (
            <EmptyListPage noun="procedures" page={q.page} total={total} firstPageHref={hrefWith("/ledger", sp, { page: null })} />
          ) : <EmptyState title={filtered ? "No procedures match these filters" : "No procedures recorded yet"}>
            {filtered
              ? "Filters match exactly (scope labels, task and state); clear one to widen the list."
              : "Agents propose procedures with POST /api/v1/ledger/procedures; trusted evaluators then report paired evaluations for them."}
          </EmptyState>
        }
        columns={[
          {
            key: "id",
            header: "Procedure",
            cell: (p) => (
              <Link href={procedureHref(p.scope, p.id)} title={p.id} data-row-main className={`${cellText} text-indigo-700 hover:underline dark:text-indigo-300`}>
                {skills[p.id] ? (
                  <>
                    <span className="font-medium">{skills[p.id].name} v{skills[p.id].version}</span>
                    <span className="block text-slate-600 dark:text-slate-300">skill of {skills[p.id].agentId}</span>
                  </>
                ) : (
                  <span className="font-mono">{p.id}</span>
                )}
              </Link>
            ),
          },
          {
            key: "scope",
            header: "Scope",
            cell: (p) => (
              <span className={cellText}>
                {p.scope.tenant} / {p.scope.agent} / {p.scope.environment}
              </span>
            ),
          },
          { key: "task", header: "Task", cell: (p) => <span className={cellText}>{p.task}</span> },
          { key: "baseline", header: "Baseline", className: "hidden 2xl:table-cell", cell: (p) => <span className={cellText}>{p.baseline_revision}</span> },
          { key: "contract", header: "Contract", className: "hidden 2xl:table-cell", cell: (p) => <span className={cellText}>{p.evaluation_contract}</span> },
          { key: "state", header: "State", cell: (p) => <Badge status={p.state} /> },
          { key: "progress", header: "n / trials", cell: (p) => <Progress n={p.qualification_count} of={p.qualification_trials} /> },
          { key: "mean", header: "Mean improvement", className: "text-right tabular-nums", cell: (p) => fixed(p.qualification_count ? p.mean_improvement : null) },
          { key: "bound", header: "Lower bound", className: "text-right tabular-nums", cell: (p) => fixed(p.lower_improvement_bound) },
          { key: "streak", header: "Failure streak", className: "text-right tabular-nums", cell: (p) => `${p.failure_streak} / ${p.max_failure_streak}` },
          { key: "violations", header: "Budget violations", className: "hidden text-right tabular-nums 2xl:table-cell", cell: (p) => p.budget_violations },
          { key: "created", header: "Proposed", cell: (p) => <LocalTime iso={p.created_at} /> },
        ]}
      />
      {rows.length > 0 ? <Pagination page={q.page} pageSize={PAGE_SIZE} total={total} href={(page) => hrefWith("/ledger", sp, { page })} /> : null}
    </>
  );
}
