// Workflows → Trajectory classes: the review page where admins find classes ready to
// distill. Summary strip, a server-paginated class table (page, sort, filters and the
// selected class in the URL), the selected class's detail with Distill now, the stored
// promotion reports and, across all agents, a roll-up per agent.
import Link from "@/components/ui/link";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyListPage, EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import { buttonClasses } from "@/components/ui/button";
import { CLASS_WORDS } from "@/lib/learning/review/vocabulary";
import { Pagination, hrefWith, type SearchParams } from "@/components/ui/table";
import { ClassesTable } from "@/components/review/classes-table";
import { ClassDetailPanel } from "@/components/review/class-detail-panel";
import { CycleButton } from "@/components/review/learning-actions";
import { ReportCard } from "@/components/review/report-card";
import { KeyHints, SearchBox } from "@/components/review/search-box";
import { SendRunsExample } from "@/components/review/send-runs-example";
import { StatusChips } from "@/components/review/status-chips";
import { SummaryStrip } from "@/components/review/summary-strip";
import { WorkflowTabs } from "@/components/review/workflow-tabs";
import { linkClass, pct, sectionTitle } from "@/components/review/styles";
import { can } from "@/lib/auth/access";
import { requireScope } from "@/lib/auth/page-access";
import { readDb } from "@/lib/db/client";
import { AGENTS_PAGE, loadWorkflowsPage, REPORTS_PAGE, RUNS_PAGE, WORKFLOWS_PATH as PATH } from "@/lib/learning/pages/workflows";
import { agentSettingsHref, skillsHref } from "@/lib/console/links";
import { formatNumber } from "@/lib/text/format";

export const dynamic = "force-dynamic";

export default async function WorkflowsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  const user = await requireScope(hrefWith(PATH, sp, {}), "learning:read");
  const canAct = can(user, "learning:write");
  const { q, hasAgents, summary, countsAll, rows, total, headers, chips, detail, runs, selectedKey, reports, rollup } = await loadWorkflowsPage(await readDb(), sp);

  const header = (
    <PageHeader
      title="Workflows"
      description="Trajectory classes: runs grouped by the tool path they took. A class that passes every gate can be distilled into a SKILL.md, which waits in shadow or goes active depending on the agent's settings."
      actions={
        <>
          {q.agent && canAct ? <CycleButton agentId={q.agent} /> : null}
          {q.agent ? (
            <Link href={agentSettingsHref(q.agent)} className={buttonClasses("secondary")}>
              Learning settings
            </Link>
          ) : null}
          <Link href={skillsHref(q.agent)} className={buttonClasses("ghost")}>
            View skills
          </Link>
        </>
      }
    />
  );

  if (!hasAgents) {
    return (
      <>
        {header}
        <WorkflowTabs current="classes" agent={q.agent} />
        {q.agent ? (
          <EmptyState title={`No agent “${q.agent}”`}>Choose another agent, or All agents, in the switcher above.</EmptyState>
        ) : (
          <SendRunsExample title="No workflow trajectories yet" />
        )}
      </>
    );
  }

  return (
    <>
      {header}
      <WorkflowTabs current="classes" agent={q.agent} />
      <SummaryStrip
        label="Summary"
        figures={[
          { label: "Recorded runs", value: formatNumber(summary.recordedRuns) },
          { label: "Classes", value: formatNumber(summary.classes) },
          { label: "Ready to distill", value: formatNumber(countsAll.ready) },
          { label: "In review", value: formatNumber(countsAll.in_review) },
          { label: CLASS_WORDS.covered, value: formatNumber(countsAll.promoted) },
          { label: "Failing", value: formatNumber(countsAll.failing) },
          { label: "Success", value: pct(summary.classedRuns ? summary.classedSuccesses / summary.classedRuns : null), title: `Over ${formatNumber(summary.classedRuns)} runs with tool steps` },
          { label: "Newest run", value: <LocalTime iso={summary.newestRun} fallback="never" />, small: true },
        ]}
      />
      {summary.classes === 0 ? (
        <SendRunsExample title="No trajectory classes yet" agentId={q.agent} />
      ) : (
        <>
          <div className="mb-4 space-y-3">
            <div className="flex flex-wrap items-center gap-3">
              <SearchBox id="class-filter" label="Filter by tool, hash or query" placeholder="Filter by tool, hash or query" resetKeys={["runs_page"]} />
              <KeyHints copyWhat="the hash" />
            </div>
            <StatusChips label="Status" chips={chips} current={q.status ?? null} />
          </div>
          <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_26rem]">
            <div className="min-w-0">
              {rows.length ? (
                <>
                  <ClassesTable rows={rows} selected={selectedKey} headers={headers} showAgent={!q.agent} />
                  <Pagination page={q.page} pageSize={q.page_size} total={total} href={(p) => hrefWith(PATH, sp, { page: p })} />
                </>
              ) : (
                <EmptyListPage noun="trajectory classes" page={q.page} total={total} firstPageHref={hrefWith(PATH, sp, { page: null })} />
              )}
            </div>
            <div className="min-w-0">
              {detail ? (
                <ClassDetailPanel
                  detail={detail}
                  runs={runs}
                  runsPage={q.runs_page}
                  runsPageSize={RUNS_PAGE}
                  runsHref={(p) => `${hrefWith(PATH, sp, { runs_page: p, class: detail.key.canonicalHash, class_agent: detail.key.agentId, class_user: detail.key.userScope || null })}#class-detail`}
                  canAct={canAct}
                />
              ) : q.class ? (
                <EmptyState title="This class was not found">It may belong to another agent; pick a class from the list.</EmptyState>
              ) : null}
            </div>
          </div>
        </>
      )}

      <section aria-labelledby="reports-title" className="mt-10">
        <h2 id="reports-title" className={sectionTitle}>
          Promotion reports
        </h2>
        {reports.items.length ? (
          <>
            <div className="grid gap-3 lg:grid-cols-2">
              {reports.items.map((r) => (
                <ReportCard key={r.data.report.id} data={r.data} agentName={r.agentName} />
              ))}
            </div>
            <Pagination page={q.reports_page} pageSize={REPORTS_PAGE} total={reports.total} href={(p) => `${hrefWith(PATH, sp, { reports_page: p })}#reports-title`} />
          </>
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            No promotion cycle has run yet. {canAct ? "Run one from an agent's view, or use Distill now on a class that is ready." : "Admins run cycles and distill classes."}
            {" "}Automatic cycles run every <code>promotion_every_n_runs</code> runs when that setting is above 0.
          </p>
        )}
      </section>

      {rollup ? (
        <section aria-labelledby="agents-title" className="mt-10">
          <h2 id="agents-title" className={sectionTitle}>
            Agents
          </h2>
          <div className="@container rounded-lg border border-slate-200 dark:border-slate-800">
            <table className="w-full table-fixed divide-y divide-slate-200 text-sm dark:divide-slate-800">
              <caption className="sr-only">Agents roll-up</caption>
              <thead className="bg-slate-50 text-left text-xs text-slate-600 dark:bg-slate-900 dark:text-slate-300">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">Agent</th>
                  <th scope="col" className="hidden w-20 px-3 py-2 text-right font-medium @2xl:table-cell">Classes</th>
                  <th scope="col" className="hidden w-20 px-3 py-2 text-right font-medium @2xl:table-cell">Runs</th>
                  <th scope="col" className="hidden w-20 px-3 py-2 text-right font-medium @3xl:table-cell">Ready</th>
                  <th scope="col" className="hidden w-20 px-3 py-2 text-right font-medium @3xl:table-cell">In review</th>
                  <th scope="col" className="hidden w-20 px-3 py-2 text-right font-medium @3xl:table-cell">{CLASS_WORDS.covered}</th>
                  <th scope="col" className="hidden w-20 px-3 py-2 text-right font-medium @2xl:table-cell">Success</th>
                  <th scope="col" className="hidden w-40 px-3 py-2 font-medium @4xl:table-cell">Newest run</th>
                  {canAct ? <th scope="col" className="w-44 px-3 py-2 font-medium"><span className="sr-only">Actions</span></th> : null}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 bg-white dark:divide-slate-800 dark:bg-slate-950">
                {rollup.rows.map((a) => (
                  <tr key={a.id} className="align-top">
                    <td className="px-3 py-2">
                      <Link href={`${PATH}?agent=${encodeURIComponent(a.id)}`} className={`${linkClass} break-words`}>
                        {a.name}
                      </Link>
                      <span className="block text-xs break-all text-slate-500">{a.id}</span>
                      <span className="block text-xs text-slate-500 @3xl:hidden">
                        {a.classes} classes · {a.counts.ready} ready · {a.counts.in_review} in review · {a.counts.promoted} covered · {pct(a.successRate)}
                      </span>
                    </td>
                    <td className="hidden px-3 py-2 text-right tabular-nums @2xl:table-cell">{formatNumber(a.classes)}</td>
                    <td className="hidden px-3 py-2 text-right tabular-nums @2xl:table-cell">{formatNumber(a.runs)}</td>
                    <td className="hidden px-3 py-2 text-right tabular-nums @3xl:table-cell">{a.counts.ready}</td>
                    <td className="hidden px-3 py-2 text-right tabular-nums @3xl:table-cell">{a.counts.in_review}</td>
                    <td className="hidden px-3 py-2 text-right tabular-nums @3xl:table-cell">{a.counts.promoted}</td>
                    <td className="hidden px-3 py-2 text-right tabular-nums @2xl:table-cell">{pct(a.successRate)}</td>
                    <td className="hidden px-3 py-2 text-xs @4xl:table-cell"><LocalTime iso={a.newestRun} fallback="never" /></td>
                    {canAct ? <td className="px-3 py-2"><CycleButton agentId={a.id} size="sm" /></td> : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination page={q.agents_page} pageSize={AGENTS_PAGE} total={rollup.total} href={(p) => `${hrefWith(PATH, sp, { agents_page: p })}#agents-title`} />
        </section>
      ) : null}
    </>
  );
}
