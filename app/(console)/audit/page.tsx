// The audit log (admins only): every change with who made it, in which role, on what (by name,
// linked), from which request, as a sentence per event type. Server-paginated; filters and page
// live in the URL. Persona page views are hidden unless "Show page views" is on; an account is
// found by its plain id (the server computes the pseudonym the rows hold).
import Link from "@/components/ui/link";
import { AuditEventSummary, targetOf } from "@/components/audit/event-summary";
import { linkClass } from "@/components/review/styles";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyListPage, EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { FilterBar } from "@/components/ui/filter-bar";
import { LocalTime } from "@/components/ui/local-time";
import { buttonClasses } from "@/components/ui/button";
import { DataTable, Pagination, hrefWith, type SearchParams } from "@/components/ui/table";
import { requireScope } from "@/lib/auth/page-access";
import { can } from "@/lib/auth/access";
import { loadAuditPage } from "@/lib/audit/pages/audit";
import type { AuditNames } from "@/lib/audit/names";
import type { AuditEventView } from "@/lib/audit/query";
import { readDb } from "@/lib/db/client";
import { apiKeyHref, userHref } from "@/lib/console/links";

export const dynamic = "force-dynamic";

export default async function AuditPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  const user = await requireScope(hrefWith("/audit", sp, {}), "audit:read");
  const view = await loadAuditPage(await readDb(), sp, can(user, "persona:read"));
  const { facets } = view;
  const filters = (
    <FilterBar
      key={JSON.stringify(sp)}
      fields={[
        { name: "actor", label: "Actor", type: "text", placeholder: "email, key name or id" },
        { name: "action", label: "Action", type: "select", options: facets.actions.map((a) => ({ value: a, label: a })) },
        { name: "target_type", label: "Target type", type: "select", options: facets.targetTypes.map((t) => ({ value: t, label: t })) },
        { name: "target", label: "Target id", type: "text" },
        { name: "account", label: "Account id", type: "text", placeholder: "plain user_id" },
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
  const { q, events, total, filtered, names, viewsShown } = view;

  return (
    <>
      {header}
      {filters}
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
        {viewsShown ? "Persona page views are shown. " : "Persona page views are hidden. "}
        <Link href={hrefWith("/audit", sp, { views: viewsShown ? null : "show", page: null })} className={linkClass}>
          {viewsShown ? "Hide page views" : "Show page views"}
        </Link>
      </p>
      <DataTable<AuditEventView>
        caption="Audit events"
        rows={events}
        rowKey={(e) => e.id}
        sort={{ key: "at", dir: q.dir, href: (_k, d) => hrefWith("/audit", sp, { dir: d, page: null }) }}
        empty={q.page > 1 && total > 0 ? <EmptyListPage noun="events" page={q.page} total={total} firstPageHref={hrefWith("/audit", sp, { page: null })} /> : <EmptyState title={filtered ? "No events match these filters" : "No events recorded yet"}>{filtered ? "Widen the time range or clear a filter." : "Changes made in the console or through admin API keys appear here."}</EmptyState>}
        columns={[
          { key: "at", header: "Time", sortable: true, cell: (e) => <LocalTime iso={e.at} /> },
          {
            key: "actor",
            header: "Actor",
            className: "min-w-[10rem]",
            cell: (e) => (
              <span className="block max-w-[16rem] break-words">
                <Actor e={e} />
                {e.actor_role ? <span className="block text-xs text-slate-500">{e.actor_role}</span> : null}
              </span>
            ),
          },
          { key: "action", header: "Event", cell: (e) => <EventName action={e.action} /> },
          { key: "target", header: "Target", className: "min-w-[9rem]", cell: (e) => <Target e={e} names={names} /> },
          { key: "details", header: "What happened", className: "min-w-[16rem]", cell: (e) => <Details e={e} names={names} /> },
          {
            key: "request",
            header: "Request · client",
            cell: (e) => (
              <span className="block max-w-[9rem] text-xs">
                <code className="block truncate" title={e.request_id ?? ""}>{e.request_id ?? "—"}</code>
                <code className="block truncate text-slate-500" title="client (keyed pseudonym of the address)">{e.client_hash ?? "—"}</code>
              </span>
            ),
          },
        ]}
      />
      {events.length > 0 ? <Pagination page={q.page} pageSize={q.page_size} total={total} href={(p) => hrefWith("/audit", sp, { page: p })} /> : null}
    </>
  );
}

/** The actor by label, linked to its settings row when it is a user or an API key. */
function Actor({ e }: { e: AuditEventView }) {
  const label = e.actor_label ?? e.actor_type;
  const href = !e.actor_id ? null : e.actor_type === "user" ? userHref(e.actor_id) : e.actor_type === "api_key" ? apiKeyHref(e.actor_id) : null;
  return href ? <Link href={href} className={linkClass}>{label}</Link> : <>{label}</>;
}

function Target({ e, names }: { e: AuditEventView; names: AuditNames }) {
  if (!e.target_type) return "—";
  // A row no current type describes keeps its raw target.
  const t = e.event ? targetOf(e.event, names) : { label: `${e.target_type}${e.target_id ? `: ${e.target_id}` : ""}`, href: null };
  return <span className="block max-w-[14rem] text-xs break-words">{t.href ? <Link href={t.href} className={linkClass}>{t.label}</Link> : t.label}</span>;
}

/** An event's name, wrapped only after a dot ("persona_proposal." / "approved"), never inside a word. */
function EventName({ action }: { action: string }) {
  const parts = action.split(".");
  return (
    <code data-event={action} className="text-xs break-normal whitespace-normal">
      {parts.map((p, i) => (
        <span key={i}>
          {p}
          {i < parts.length - 1 ? (
            <>
              .<wbr />
            </>
          ) : null}
        </span>
      ))}
    </code>
  );
}

/** The event's sentence; a row no current type describes shows its raw details, wrapped. */
function Details({ e, names }: { e: AuditEventView; names: AuditNames }) {
  if (e.event) return <span className="block text-sm break-words"><AuditEventSummary event={e.event} names={names} /></span>;
  return (
    <span className="block text-xs">
      <span className="text-slate-500">Unrecognized (legacy) event:</span>
      <pre className="mt-1 break-words whitespace-pre-wrap text-slate-600 dark:text-slate-400">{JSON.stringify(e.details, null, 2)}</pre>
    </span>
  );
}
