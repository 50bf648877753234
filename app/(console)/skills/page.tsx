// Skills: the review page for distilled SKILL.md procedures. Summary strip, filters by
// status (or ready to review), agent, authority and text, a server-paginated table, and the
// selected skill's detail with the activation and demotion decisions (admins).
import Link from "@/components/ui/link";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyListPage, EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import { buttonClasses } from "@/components/ui/button";
import { Pagination, hrefWith, type SearchParams } from "@/components/ui/table";
import { KeyHints, SearchBox } from "@/components/review/search-box";
import { SkillDetailPanel } from "@/components/review/skill-detail-panel";
import { SkillsTable } from "@/components/review/skills-table";
import { SkillsTransfer } from "@/components/review/skills-transfer";
import { StatusChips } from "@/components/review/status-chips";
import { SummaryStrip } from "@/components/review/summary-strip";
import { pct } from "@/components/review/styles";
import { can } from "@/lib/auth/access";
import { requireScope } from "@/lib/auth/page-access";
import { readDb } from "@/lib/db/client";
import { loadSkillsPage, SKILL_STATUS_LABEL as STATUS_LABEL, SKILLS_PATH as PATH } from "@/lib/learning/pages/skills";
import { workflowsHref } from "@/lib/console/links";
import { formatNumber } from "@/lib/text/format";

export const dynamic = "force-dynamic";

export default async function SkillsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  const user = await requireScope(hrefWith(PATH, sp, {}), "learning:read");
  const isAdmin = can(user, "audit:read");
  const { q, all: a, skillsTotal, optional, rows, total, headers, statusChips, authorityChips, detail } = await loadSkillsPage(await readDb(), sp, {
    withAudit: isAdmin,
    withLedger: can(user, "ledger:read"),
  });

  const header = (
    <PageHeader
      title="Skills"
      description="SKILL.md procedures distilled from repeated successful runs. Shadow skills are observed passively; activation is always an explicit reviewer decision, and active skills are demoted when they drift."
      actions={
        <div className="flex flex-wrap items-center gap-2">
          {q.agent ? <SkillsTransfer agentId={q.agent} status={q.status ?? null} counts={a.counts} canImport={can(user, "learning:write")} /> : null}
          <Link href={workflowsHref(q.agent)} className={buttonClasses("ghost")}>
            View trajectory classes
          </Link>
        </div>
      }
    />
  );
  if (skillsTotal === 0) {
    return (
      <>
        {header}
        <EmptyState title="No learned skills yet" action={<Link href={workflowsHref(q.agent)} className={buttonClasses("secondary")}>Open trajectory classes</Link>}>
          Skills appear when a trajectory class passes every promotion gate and is distilled: by an automatic cycle, by Run promotion cycle, or by Distill now on a class that is ready.
        </EmptyState>
      </>
    );
  }

  return (
    <>
      {header}
      <SummaryStrip
        label="Summary"
        figures={[
          { label: "Skills", value: formatNumber(skillsTotal) },
          { label: "Active", value: formatNumber(a.counts.active) },
          { label: "Shadow", value: formatNumber(a.counts.shadow) },
          { label: "Ready to review", value: formatNumber(a.counts.ready) },
          ...optional.map((s) => ({ label: STATUS_LABEL[s], value: formatNumber(a.counts[s]) })),
          { label: "Activations", value: formatNumber(a.activations) },
          { label: "Success", value: pct(a.successes + a.failures ? a.successes / (a.successes + a.failures) : null) },
          { label: "Deviations", value: formatNumber(a.deviations) },
          { label: "Newest skill", value: <LocalTime iso={a.newest} fallback="—" />, small: true },
        ]}
      />
      <div className="mb-4 space-y-3">
        <div className="flex flex-wrap items-center gap-3">
          <SearchBox id="skill-filter" label="Filter by name, tool, hash or agent" placeholder="Filter by name, tool, hash or agent" resetKeys={[]} />
          <KeyHints copyWhat="the SKILL.md" />
        </div>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          <StatusChips label="Status" chips={statusChips} current={q.status ?? null} />
          <StatusChips label="Authority" chips={authorityChips} current={q.authority ?? null} />
        </div>
      </div>
      <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_30rem]">
        <div className="min-w-0">
          {rows.length ? (
            <>
              <SkillsTable rows={rows} selected={detail?.skill.skill_id ?? null} selectedContent={detail?.skill.content ?? null} headers={headers} canDecide={can(user, "learning:write")} />
              <Pagination page={q.page} pageSize={q.page_size} total={total} href={(p) => hrefWith(PATH, sp, { page: p })} />
            </>
          ) : (
            <EmptyListPage noun="skills" page={q.page} total={total} firstPageHref={hrefWith(PATH, sp, { page: null })} />
          )}
        </div>
        <div className="min-w-0">
          {detail ? (
            <SkillDetailPanel
              detail={detail}
              canAct={can(user, "learning:write")}
              isAdmin={isAdmin}
              canMeasure={can(user, "experiments:manage")}
              fileHref={(file) => hrefWith(PATH, sp, { skill: detail.skill.skill_id, file })}
              closeFileHref={hrefWith(PATH, sp, { skill: detail.skill.skill_id, file: null })}
            />
          ) : q.skill ? (
            <EmptyState title="This skill was not found">Pick a skill from the list.</EmptyState>
          ) : null}
        </div>
      </div>
    </>
  );
}
