// Agents: each agent's toolbox, how many runs it has sent and when it last did; below, the
// OpenTelemetry traces that made no runs for want of a declared agent.
import Link from "@/components/ui/link";
import { headers } from "next/headers";
import { PageHeader } from "@/components/ui/page-header";
import { DataTable, Pagination, hrefWith, type SearchParams } from "@/components/ui/table";
import { EmptyListPage, EmptyState } from "@/components/ui/empty-state";
import { CodeBlock } from "@/components/ui/code-block";
import { CopyButton } from "@/components/ui/copy-button";
import { LocalTime } from "@/components/ui/local-time";
import { requireScope } from "@/lib/auth/page-access";
import { AGENTS_PAGE_SIZE as PAGE_SIZE, loadAgentsPage } from "@/lib/learning/pages/agents";
import { readDb } from "@/lib/db/client";
import { agentHref } from "@/lib/console/links";
import { UnmappedTraces } from "@/components/agents/unmapped-traces";
import { formatNumber } from "@/lib/text/format";

export const dynamic = "force-dynamic";

const MAX_TOOLS_SHOWN = 6;

function curlExample(origin: string): string {
  return [
    `export PROCTOR_URL=${origin}`,
    `export PROCTOR_API_KEY=pk_…   # Settings → API keys, scopes ingest + admin`,
    ``,
    `curl -X PUT "$PROCTOR_URL/api/v1/agents/support-bot" \\`,
    `  -H "Authorization: Bearer $PROCTOR_API_KEY" -H "Content-Type: application/json" \\`,
    `  -d '{"name": "Support bot", "tools": [{"name": "lookup_order", "description": "Find an order by id"}]}'`,
    ``,
    `curl -X POST "$PROCTOR_URL/api/v1/agents/support-bot/workflows" \\`,
    `  -H "Authorization: Bearer $PROCTOR_API_KEY" -H "Content-Type: application/json" \\`,
    `  -d '{"query": "Where is order A1?", "steps": [{"tool": "lookup_order", "arguments": {"order_id": "A1"}, "result": {"status": "shipped"}}], "outcome": "success"}'`,
  ].join("\n");
}

export default async function AgentsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  await requireScope(hrefWith("/agents", sp, {}), "learning:read");
  const { page, agents, total, unmapped } = await loadAgentsPage(await readDb(), sp);
  const h = await headers();
  const origin = `${h.get("x-forwarded-proto") ?? "http"}://${h.get("host") ?? "localhost:3000"}`;
  const example = curlExample(origin);

  return (
    <>
      <PageHeader title="Agents" description="Every agent that reports its runs to Proctor, with its toolbox and activity." />
      <DataTable
        caption="Agents"
        rows={agents}
        rowKey={(a) => a.id}
        rowLink
        empty={
          page > 1 && total > 0 ? (
            <EmptyListPage noun="agents" page={page} total={total} firstPageHref={hrefWith("/agents", sp, { page: null })} />
          ) : <EmptyState title="No agents yet" action={<CopyButton value={example} label="Copy example" />}>
            <p>An agent appears here once it is registered over the API. Create an API key in Settings → API keys, then register the agent and send it a run:</p>
            <div className="mt-3 text-left">
              <CodeBlock value={example} label="Example: register an agent and send a run" />
            </div>
          </EmptyState>
        }
        columns={[
          {
            key: "agent",
            header: "Agent",
            cell: (a) => (
              <Link href={agentHref(a.id)} data-row-main className="rounded font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-300">
                {a.name}
                {a.name !== a.id ? <span className="ml-1 font-normal text-slate-500">({a.id})</span> : null}
              </Link>
            ),
          },
          {
            key: "tools",
            header: "Toolbox",
            cell: (a) =>
              a.tools.length ? (
                <span className="flex flex-wrap gap-1">
                  {a.tools.slice(0, MAX_TOOLS_SHOWN).map((t) => (
                    <code key={t} className="rounded bg-slate-100 px-1.5 py-0.5 text-xs dark:bg-slate-800">
                      {t}
                    </code>
                  ))}
                  {a.tools.length > MAX_TOOLS_SHOWN ? <span className="text-xs text-slate-500">+{a.tools.length - MAX_TOOLS_SHOWN} more</span> : null}
                </span>
              ) : (
                <span className="text-slate-500 dark:text-slate-400">no tools</span>
              ),
          },
          { key: "runs", header: "Runs", className: "text-right tabular-nums", cell: (a) => formatNumber(a.runCount) },
          { key: "last", header: "Last run", cell: (a) => <LocalTime iso={a.lastRunAt} fallback="never" /> },
        ]}
      />
      {agents.length > 0 ? <Pagination page={page} pageSize={PAGE_SIZE} total={total} href={(p) => hrefWith("/agents", sp, { page: p })} /> : null}
      <UnmappedTraces rows={unmapped} showAgent />
    </>
  );
}
