// Experiments: every experiment of the agent in scope (`agent=`) or of all agents, newest first,
// with status and progress. Server-paginated; the filters and the page live in the URL.
import Link from "@/components/ui/link";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyListPage, EmptyState } from "@/components/ui/empty-state";
import { Badge } from "@/components/ui/badge";
import { buttonClasses } from "@/components/ui/button";
import { FilterBar } from "@/components/ui/filter-bar";
import { LocalTime } from "@/components/ui/local-time";
import { DataTable, Pagination, hrefWith, type SearchParams } from "@/components/ui/table";
import { Progress } from "@/components/ledger/figures";
import { linkClass } from "@/components/review/styles";
import { can } from "@/lib/auth/access";
import { requireScope } from "@/lib/auth/page-access";
import { skillHref } from "@/lib/console/links";
import { readDb } from "@/lib/db/client";
import { EXPERIMENT_STATUSES, PAGE_SIZE, loadExperimentsPage, type ExperimentSummary } from "@/lib/experiments/pages/experiments";

export const dynamic = "force-dynamic";

export default async function ExperimentsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  const user = await requireScope(hrefWith("/experiments", sp, {}), "experiments:read");
  const { q, experiments, total, filtered } = await loadExperimentsPage(await readDb(), sp);
  const newHref = hrefWith("/experiments/new", q.agent ? { agent: q.agent } : {}, {});
  return (
    <>
      <PageHeader
        title="Experiments"
        description="Controlled comparisons of a skill against the agent's raw workflows on held-out cases: the agent runs each case in each arm through the SDK and reports the runs; Proctor scores them and checks the arms were what they claim."
        actions={can(user, "experiments:manage") ? <Link href={newHref} className={buttonClasses("primary")}>New experiment</Link> : null}
      />
      <FilterBar
        key={JSON.stringify(sp)}
        fields={[{ name: "status", label: "Status", type: "select", options: EXPERIMENT_STATUSES.map((s) => ({ value: s, label: s })) }]}
      />
      <DataTable<ExperimentSummary>
        caption="Experiments"
        rows={experiments}
        rowKey={(e) => e.experiment_id}
        rowLink
        empty={
          q.page > 1 && total > 0 ? (
            <EmptyListPage noun="experiments" page={q.page} total={total} firstPageHref={hrefWith("/experiments", sp, { page: null })} />
          ) : <EmptyState title={filtered ? "No experiments match these filters" : "No experiments yet"}>
            {filtered
              ? "Clear the status filter or choose all agents to widen the list."
              : "Open a shadow or active skill and choose “Measure this skill”, or create one with POST /api/v1/agents/{agent_id}/experiments."}
          </EmptyState>
        }
        columns={[
          { key: "name", header: "Experiment", cell: (e) => <Link href={`/experiments/${encodeURIComponent(e.experiment_id)}`} data-row-main className={linkClass}>{e.name}</Link> },
          { key: "status", header: "Status", cell: (e) => <Badge status={e.status} /> },
          { key: "agent", header: "Agent", cell: (e) => <span className="text-xs">{e.agent_id}</span> },
          { key: "skill", header: "Skill", cell: (e) => <Link href={skillHref(e.agent_id, e.skill_id)} className={`${linkClass} font-mono text-xs`}>{e.skill_id} v{e.skill_version}</Link> },
          { key: "model", header: "Model", cell: (e) => <span className="text-xs">{e.model}</span> },
          { key: "size", header: "Cases × arms", className: "text-right tabular-nums", cell: (e) => `${e.cases} × ${e.arms}` },
          { key: "progress", header: "Reported / expected", cell: (e) => <Progress n={e.progress.reported} of={e.progress.expected} /> },
          { key: "created", header: "Created", cell: (e) => <LocalTime iso={e.created_at} /> },
        ]}
      />
      {experiments.length > 0 ? <Pagination page={q.page} pageSize={PAGE_SIZE} total={total} href={(page) => hrefWith("/experiments", sp, { page })} /> : null}
    </>
  );
}
