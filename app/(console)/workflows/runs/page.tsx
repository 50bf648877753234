// Workflows → Runs: the newest runs across agents (or the selected agent), filterable by
// outcome, agent and user. Each opens with its tool steps.
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { FilterBar } from "@/components/ui/filter-bar";
import { hrefWith, type SearchParams } from "@/components/ui/table";
import { RunsTable } from "@/components/runs/runs-table";
import { WorkflowTabs } from "@/components/review/workflow-tabs";
import { requireScope } from "@/lib/auth/page-access";
import { loadRunsPage } from "@/lib/learning/pages/runs";
import { readDb } from "@/lib/db/client";

export const dynamic = "force-dynamic";

export default async function RunsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  await requireScope(hrefWith("/workflows/runs", sp, {}), "learning:read");
  const { q, runs, total, capped, agents, filtered } = await loadRunsPage(await readDb(), sp);

  return (
    <>
      <PageHeader title="Workflows" description="Tool-calling runs as agents reported them, newest first. Open a run to see each tool call with its arguments, result and error." />
      <WorkflowTabs current="runs" agent={q.agent} />
      <FilterBar
        key={JSON.stringify(sp)}
        fields={[
          { name: "agent", label: "Agent", type: "select", options: agents.map((a) => ({ value: a.id, label: a.name === a.id ? a.id : `${a.name} (${a.id})` })) },
          { name: "outcome", label: "Outcome", type: "select", options: [{ value: "success", label: "Success" }, { value: "failure", label: "Failure" }] },
          { name: "user", label: "User id", type: "text", placeholder: "acct-42" },
        ]}
      />
      <RunsTable
        runs={runs}
        total={total}
        capped={capped}
        page={q.page}
        pageSize={q.page_size}
        dir={q.dir}
        path="/workflows/runs"
        searchParams={sp}
        empty={
          filtered ? (
            <EmptyState title="No runs match these filters">Clear a filter to see more runs.</EmptyState>
          ) : (
            <EmptyState title="No runs recorded yet">Agents send runs with POST /api/v1/agents/&#123;agent_id&#125;/workflows; the Agents page has a copyable example.</EmptyState>
          )
        }
      />
    </>
  );
}
