// Accounts: every account id the agents sent runs or conversations for, with its activity and
// persona, searchable and paged in the URL; each opens its persona page and its traces.
import Link from "@/components/ui/link";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { Badge } from "@/components/ui/badge";
import { LocalTime } from "@/components/ui/local-time";
import { DataTable, KeysetPagination, hrefWith, type SearchParams } from "@/components/ui/table";
import { SearchBox } from "@/components/review/search-box";
import { linkClass } from "@/components/review/styles";
import { reviewStatus } from "@/lib/persona/monitor";
import { requireScope } from "@/lib/auth/page-access";
import { loadAccountsPage } from "@/lib/accounts/pages/accounts";
import { readDb } from "@/lib/db/client";
import { formatNumber } from "@/lib/text/format";

export const dynamic = "force-dynamic";

const PATH = "/accounts";
const personaHref = (userId: string) => `/persona-evolution?${new URLSearchParams({ user_id: userId })}`;
const tracesHref = (agentId: string, userId: string) => `/traces?${new URLSearchParams({ agent_id: agentId, user_id: userId })}`;

export default async function AccountsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  await requireScope(hrefWith(PATH, sp, {}), "persona:read");
  const { q, agent, pending, first, rows, next, total, capped, filtered } = await loadAccountsPage(await readDb(), sp);
  const chip = (active: boolean) =>
    `rounded-full px-3 py-1 text-xs font-medium ring-1 ring-inset ${
      active ? "bg-indigo-600 text-white ring-indigo-600" : "text-slate-700 ring-slate-300 hover:bg-slate-100 dark:text-slate-300 dark:ring-slate-700 dark:hover:bg-slate-800"
    }`;
  return (
    <>
      <PageHeader
        title="Accounts"
        description={
          <>
            The accounts (the agents&apos; <code>user_id</code>) seen in runs and conversations{agent ? <> of <code>{agent}</code></> : null}, newest activity first. Open one to see its
            persona and decide its suggestions.
          </>
        }
      />
      <div className="mb-4 flex min-w-0 flex-wrap items-center gap-2">
        <SearchBox id="accounts-search" label="Search accounts" placeholder="Account ID contains…" resetKeys={["after"]} />
        <nav aria-label="Filter accounts" className="flex gap-2">
          <Link href={hrefWith(PATH, sp, { pending: null, after: null })} aria-current={!pending ? "page" : undefined} className={chip(!pending)}>
            All
          </Link>
          <Link href={hrefWith(PATH, sp, { pending: 1, after: null })} aria-current={pending ? "page" : undefined} className={chip(pending)}>
            Suggestion pending
          </Link>
        </nav>
      </div>
      <DataTable
        caption="Accounts"
        rows={rows}
        rowKey={(r) => r.userId}
        rowLink
        empty={
          <EmptyState title={filtered ? "No account matches" : "No accounts yet"}>
            {filtered
              ? `Nothing matches${q ? ` “${q}”` : ""}${pending ? " with a pending suggestion" : ""}${agent ? ` for agent ${agent}` : ""}.`
              : "An account appears once an agent sends a run or a conversation with its user_id."}
          </EmptyState>
        }
        columns={[
          {
            key: "account",
            header: "Account",
            cell: (r) => (
              <Link href={personaHref(r.userId)} data-row-main className={`${linkClass} break-all`}>
                {r.userId}
              </Link>
            ),
          },
          { key: "agent", header: "Agent", className: "hidden md:table-cell", cell: (r) => <span className="break-all">{r.agentId}</span> },
          { key: "runs", header: "Runs", className: "text-right tabular-nums", cell: (r) => formatNumber(r.runs) },
          { key: "threads", header: "Threads", className: "hidden text-right tabular-nums sm:table-cell", cell: (r) => formatNumber(r.threads) },
          { key: "seen", header: "Last seen", className: "hidden lg:table-cell", cell: (r) => <LocalTime iso={r.lastSeen} /> },
          {
            key: "persona",
            header: "Persona",
            cell: (r) =>
              r.pending ? (
                <Badge tone="amber">suggestion pending</Badge>
              ) : r.persona ? (
                <span className="whitespace-nowrap">
                  v{r.persona.version} · {r.persona.paused ? "paused" : r.persona.status === "not_reviewed" ? "not reviewed" : reviewStatus(r.persona.status).label.toLowerCase()}
                </span>
              ) : (
                <span className="text-slate-500">none yet</span>
              ),
          },
          {
            key: "traces",
            header: <span className="sr-only">Traces</span>,
            cell: (r) => (
              <Link href={tracesHref(r.agentId, r.userId)} className={linkClass} aria-label={`Traces of ${r.userId}`}>
                Traces
              </Link>
            ),
          },
        ]}
      />
      {total > 0 ? (
        <KeysetPagination total={total} capped={capped} firstHref={first ? null : hrefWith(PATH, sp, { after: null })} nextHref={next ? hrefWith(PATH, sp, { after: next }) : null} />
      ) : null}
    </>
  );
}
