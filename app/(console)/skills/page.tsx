// Skills: the review page for distilled SKILL.md procedures. Summary strip, filters by
// status (or ready to review), agent, authority and text, a server-paginated table, and the
// selected skill's detail with the activation and demotion decisions (admins).
import Link from "next/link";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import { buttonClasses } from "@/components/ui/button";
import { Pagination, hrefWith, type SearchParams } from "@/components/ui/table";
import { KeyHints, SearchBox } from "@/components/review/search-box";
import { SkillDetailPanel } from "@/components/review/skill-detail-panel";
import { SkillsTable, type SkillRowView } from "@/components/review/skills-table";
import type { SortHeader } from "@/components/review/sort-header";
import { StatusChips } from "@/components/review/status-chips";
import { SummaryStrip } from "@/components/review/summary-strip";
import { pct } from "@/components/review/styles";
import { requireUser } from "@/lib/auth/page-access";
import { db } from "@/lib/db/client";
import { getSkillDetail } from "@/lib/learning/review/skill-detail";
import { listReviewSkills, skillTotals } from "@/lib/learning/review/skill-list";
import { defaultSkillDir, SKILL_STATUSES, skillQuerySchema, type SkillSort } from "@/lib/learning/review/skill-query";

export const dynamic = "force-dynamic";

const PATH = "/skills";
const LIST_RESET = { page: null } as const;
const SORT_LABEL: Record<SkillSort, string> = { name: "Skill", lifecycle: "Status", activations: "Activations", success: "Success", deviations: "Deviations", listed: "Promoted" };
const STATUS_LABEL: Record<string, string> = { active: "Active", shadow: "Shadow", candidate: "Candidate", deprecated: "Deprecated", demoted: "Demoted", ready: "Ready to review" };

export default async function SkillsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  const user = await requireUser(hrefWith(PATH, sp, {}));
  const q = skillQuerySchema.parse(sp);
  const isAdmin = user.role === "ADMIN";
  const canAct = isAdmin && process.env.PROCTOR_READ_ONLY !== "1";
  const list = await listReviewSkills(db(), q);
  const all = q.q || q.authority ? await skillTotals(db(), list.agents, {}) : list.totals;
  const selectedId = q.skill ?? list.rows[0]?.id;
  const detail = selectedId ? await getSkillDetail(db(), selectedId, { withAudit: isAdmin, withLedger: isAdmin }) : null;

  const rows: SkillRowView[] = list.rows.map((r) => ({
    key: r.id,
    selectHref: hrefWith(PATH, sp, { skill: r.id }),
    name: r.name,
    version: r.version,
    status: r.status,
    agentName: r.agentName,
    showAgent: !q.agent,
    authority: r.injectionRole,
    tools: r.tools,
    activations: r.activations,
    successRate: r.successes + r.failures ? r.successes / (r.successes + r.failures) : null,
    deviations: r.deviations,
    shadow: r.readiness ? { ready: r.readiness.ready, observations: r.readiness.observations } : null,
    listedAt: (r.promotedAt ?? r.createdAt).toISOString(),
  }));
  const dir = q.dir ?? defaultSkillDir(q.sort);
  const headers: SortHeader[] = (Object.keys(SORT_LABEL) as SkillSort[]).map((k) => ({
    key: k,
    label: SORT_LABEL[k],
    active: q.sort === k ? dir : null,
    href: hrefWith(PATH, sp, { ...LIST_RESET, sort: k, dir: q.sort === k ? (dir === "asc" ? "desc" : "asc") : defaultSkillDir(k) }),
  }));
  const counts = list.totals.counts;
  const present = SKILL_STATUSES.filter((s) => counts[s] > 0 || q.status === s);
  const statusChips = [
    { value: null, label: "All", count: SKILL_STATUSES.reduce((a, s) => a + counts[s], 0), href: hrefWith(PATH, sp, { ...LIST_RESET, status: null }) },
    ...present.map((s) => ({ value: s, label: STATUS_LABEL[s], count: counts[s], href: hrefWith(PATH, sp, { ...LIST_RESET, status: s }) })),
    ...(counts.shadow > 0 || q.status === "ready" ? [{ value: "ready", label: STATUS_LABEL.ready, count: counts.ready, href: hrefWith(PATH, sp, { ...LIST_RESET, status: "ready" }) }] : []),
  ];
  const authorityChips = [
    { value: null, label: "Any authority", href: hrefWith(PATH, sp, { ...LIST_RESET, authority: null }) },
    ...(["user", "developer"] as const).map((a) => ({ value: a, label: `authority: ${a}`, href: hrefWith(PATH, sp, { ...LIST_RESET, authority: a }) })),
  ];
  const a = all;
  const skillsTotal = SKILL_STATUSES.reduce((n, s) => n + a.counts[s], 0);
  const optional = (["candidate", "demoted", "deprecated"] as const).filter((s) => a.counts[s] > 0);

  const header = (
    <PageHeader
      title="Skills"
      description="SKILL.md procedures distilled from repeated successful runs. Shadow skills are observed passively; activation is always an explicit reviewer decision, and active skills are demoted when they drift."
      actions={
        <Link href={q.agent ? `/workflows?agent=${encodeURIComponent(q.agent)}` : "/workflows"} className={buttonClasses("ghost")}>
          View trajectory classes
        </Link>
      }
    />
  );
  if (skillsTotal === 0) {
    return (
      <>
        {header}
        <EmptyState title="No learned skills yet" action={<Link href={q.agent ? `/workflows?agent=${encodeURIComponent(q.agent)}` : "/workflows"} className={buttonClasses("secondary")}>Open trajectory classes</Link>}>
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
          { label: "Skills", value: skillsTotal.toLocaleString("en") },
          { label: "Active", value: a.counts.active.toLocaleString("en") },
          { label: "Shadow", value: a.counts.shadow.toLocaleString("en") },
          { label: "Ready to review", value: a.counts.ready.toLocaleString("en") },
          ...optional.map((s) => ({ label: STATUS_LABEL[s], value: a.counts[s].toLocaleString("en") })),
          { label: "Activations", value: a.activations.toLocaleString("en") },
          { label: "Success", value: pct(a.successes + a.failures ? a.successes / (a.successes + a.failures) : null) },
          { label: "Deviations", value: a.deviations.toLocaleString("en") },
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
              <SkillsTable rows={rows} selected={detail?.skill.skill_id ?? null} selectedContent={detail?.skill.content ?? null} headers={headers} />
              <Pagination page={q.page} pageSize={q.page_size} total={list.total} href={(p) => hrefWith(PATH, sp, { page: p })} />
            </>
          ) : (
            <EmptyState title="No skills match this filter">Clear the filter box or choose All to see every skill.</EmptyState>
          )}
        </div>
        <div className="min-w-0">
          {detail ? (
            <SkillDetailPanel detail={detail} canAct={canAct} isAdmin={isAdmin} />
          ) : q.skill ? (
            <EmptyState title="This skill was not found">Pick a skill from the list.</EmptyState>
          ) : null}
        </div>
      </div>
    </>
  );
}
