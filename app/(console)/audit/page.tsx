// The audit log (admins only): every change with who made it, in which role, on what, from
// which request, as a sentence with links. Server-paginated; filters and page live in the URL.
import Link from "next/link";
import { AuditEventSummary, targetHref } from "@/components/audit/event-summary";
import { linkClass } from "@/components/review/styles";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { FilterBar } from "@/components/ui/filter-bar";
import { LocalTime } from "@/components/ui/local-time";
import { buttonClasses } from "@/components/ui/button";
import { DataTable, Pagination, hrefWith, type SearchParams } from "@/components/ui/table";
import { requireScope } from "@/lib/auth/page-access";
import { loadAuditPage } from "@/lib/audit/pages/audit";
import type { AuditEventView } from "@/lib/audit/query";
import { db } from "@/lib/db/client";

export const dynamic = "force-dynamic";

export default async function AuditPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  await requireScope(hrefWith("/audit", sp, {}), "audit:read");
  const view = await loadAuditPage(db(), sp);
  const { facets } = view;
  const filters = (
    <FilterBar
      key={JSON.stringify(sp)}
      fields={[
        { name: "actor", label: "Actor", type: "text", placeholder: "email, key name or id" },
        { name: "action", label: "Action", type: "select", options: facets.actions.map((a) => ({ value: a, label: a })) },
        { name: "target_type", label: "Target type", type: "select", options: facets.targetTypes.map((t) => ({ value: t, label: t })) },
        { name: "target", label: "Target id", type: "text" },
        { name: "from", label: "From", type: "datetime" },
        { name: "to", label: "To", type: "datetime" },
      ]}
    />
  );
  // Downloads of every event the filters select (not only this page), streamed by the console route.
  const exportHref = (format: "csv" | "jsonl") => hrefWith("/api/console/audit/export", sp, { format, page: null, page_size: null });
  const header = (
    <PageHeader
      title="Audit log"
      description="Append-only: every change in Proctor, recorded in the same transaction as the change itself."
      actions={
        <>
          <a href={exportHref("csv")} download className={buttonClasses("secondary")}>
            Export CSV
          </a>
          <a href={exportHref("jsonl")} download className={buttonClasses("secondary")}>
            Export JSONL
          </a>
        </>
      }
    />
  );
  if (view.invalid !== null) {
    return (
      <>
        {header}
        <ErrorState
          title="These filters cannot be read"
          message={view.invalid}
          action={<Link href="/audit" className={buttonClasses("secondary")}>Clear filters</Link>}
        />
      </>
    );
  }
  const { q, events, total, filtered } = view;

  return (
    <>
      {header}
      {filters}
      <DataTable<AuditEventView>
        caption="Audit events"
        rows={events}
        rowKey={(e) => e.id}
        sort={{ key: "at", dir: q.dir, href: (_k, d) => hrefWith("/audit", sp, { dir: d, page: null }) }}
        empty={<EmptyState title={filtered ? "No events match these filters" : "No events recorded yet"}>{filtered ? "Widen the time range or clear a filter." : "Changes made in the console or through admin API keys appear here."}</EmptyState>}
        columns={[
          { key: "at", header: "Time", sortable: true, cell: (e) => <LocalTime iso={e.at} /> },
          {
            key: "actor",
            header: "Actor",
            className: "min-w-[10rem]",
            cell: (e) => (
              <span className="block max-w-[16rem] break-words">
                {e.actor_label ?? e.actor_type}
                {e.actor_role ? <span className="block text-xs text-slate-500">{e.actor_role}</span> : null}
              </span>
            ),
          },
          { key: "action", header: "Event", cell: (e) => <code className="text-xs">{e.action}</code> },
          {
            key: "target",
            header: "Target",
            className: "min-w-[10rem]",
            cell: (e) => <Target e={e} />,
          },
          { key: "request", header: "Request", cell: (e) => <code className="block max-w-[10rem] truncate text-xs" title={e.request_id ?? ""}>{e.request_id ?? "—"}</code> },
          { key: "client", header: "Client", cell: (e) => <code className="text-xs">{e.client_hash ?? "—"}</code> },
          { key: "details", header: "What happened", className: "min-w-[18rem]", cell: (e) => <Details e={e} /> },
        ]}
      />
      {events.length > 0 ? <Pagination page={q.page} pageSize={q.page_size} total={total} href={(p) => hrefWith("/audit", sp, { page: p })} /> : null}
    </>
  );
}

function Target({ e }: { e: AuditEventView }) {
  if (!e.target_type) return "—";
  const text = `${e.target_type}${e.target_id ? `: ${e.target_id}` : ""}`;
  const href = e.event ? targetHref(e.event) : null;
  return <span className="block max-w-[14rem] text-xs break-all">{href ? <Link href={href} className={linkClass}>{text}</Link> : text}</span>;
}

/** The event's sentence; a row no current type describes shows its raw details instead. */
function Details({ e }: { e: AuditEventView }) {
  if (e.event) return <span className="block max-w-md text-sm"><AuditEventSummary event={e.event} /></span>;
  const text = JSON.stringify(e.details);
  return (
    <span className="block max-w-md text-xs">
      <span className="text-slate-500">Unrecognized (legacy) event: </span>
      <code title={text} className="line-clamp-3 break-all text-slate-600 dark:text-slate-400">
        {text}
      </code>
    </span>
  );
}
