// One experiment's report: status and progress, the seed's checks with their evidence, the
// per-arm table with each treatment's delta and interval, the deltas chart, how the arms were
// ordered within the cases, the per-case drill-down (each with its arm order), the seed's
// caveat, and CSV / JSON exports. Recomputed from the stored runs.
import Link from "@/components/ui/link";
import { notFound } from "next/navigation";
import { PageHeader } from "@/components/ui/page-header";
import { Badge } from "@/components/ui/badge";
import { FactGrid } from "@/components/ui/fact-grid";
import { LocalTime } from "@/components/ui/local-time";
import { buttonClasses } from "@/components/ui/button";
import { PageAgent } from "@/components/shell/page-agent";
import { Progress } from "@/components/ledger/figures";
import { procedureHref } from "@/components/ledger/links";
import { CancelExperimentButton } from "@/components/experiments/cancel-button";
import { CaseDrilldown } from "@/components/experiments/case-drilldown";
import { ChecksList } from "@/components/experiments/checks-list";
import { DeltasChart } from "@/components/experiments/deltas-chart";
import { ReportTable } from "@/components/experiments/report-table";
import { linkClass, panelClass, sectionTitle } from "@/components/review/styles";
import { can } from "@/lib/auth/access";
import { requireScope } from "@/lib/auth/page-access";
import { agentHref, skillHref } from "@/lib/console/links";
import { readDb } from "@/lib/db/client";
import type { ExperimentReport } from "@/lib/experiments/report";
import { exportHref, loadExperimentPage } from "@/lib/experiments/pages/experiment";

export const dynamic = "force-dynamic";

function LedgerOutcomeText({ outcome: o }: { outcome: ExperimentReport["experiment"]["ledger"] }) {
  if (!o) return <>paired evaluations are recorded on completion</>;
  if (o.skipped || !o.procedure_id || !o.scope) return <>nothing recorded: {o.skipped ?? "no procedure"}</>;
  return (
    <>
      <Link href={procedureHref(o.scope, o.procedure_id)} className={linkClass}>
        {o.recorded} paired evaluations recorded for {o.procedure_id}
      </Link>
      {o.already_counted + o.duplicates > 0 ? ` · ${o.already_counted + o.duplicates} pairs already counted (the same case content and arm), not added again` : ""}
      {o.qualification_count !== null ? ` · qualification trials now ${o.qualification_count}` : ""}
    </>
  );
}

export default async function ExperimentPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const user = await requireScope(`/experiments/${encodeURIComponent(id)}`, "experiments:read");
  const view = await loadExperimentPage(await readDb(), id);
  if (!view) notFound();
  const { report: r, skillName } = view;
  const e = r.experiment;
  const open = e.status === "draft" || e.status === "running";
  const facts: [string, React.ReactNode][] = [
    ["Status", <Badge key="s" status={e.status} />],
    ["Runs reported / expected", <Progress key="p" n={r.progress.reported} of={r.progress.expected} />],
    ["Contexts served", r.progress.served],
    ["Agent", <Link key="a" href={agentHref(e.agent_id)} className={linkClass}>{e.agent_id}</Link>],
    ["Skill", <Link key="k" href={skillHref(e.agent_id, e.skill_id)} className={linkClass}>{skillName ?? e.skill_id} v{e.skill_version}</Link>],
    ["Model", e.model],
    ["Repetitions", e.repetitions],
    ["Provider mapping", e.provider],
    ["Created", <span key="c"><LocalTime iso={e.created_at} /> by {e.created_by}</span>],
    ["Completed", <LocalTime key="d" iso={e.completed_at} fallback="not yet" />],
    ["Ledger", <LedgerOutcomeText key="l" outcome={e.ledger} />],
  ];
  return (
    <>
      <PageAgent id={e.agent_id} />
      <PageHeader
        title={e.name}
        description={`Experiment ${e.experiment_id}: ${e.arms.map((a) => `${a.name} (${a.mode}${a.n ? ` n=${a.n}` : ""})`).join(", ")}; treatments compared with ${e.baseline_arm}.`}
        actions={
          <div className="flex flex-wrap gap-2">
            <a href={exportHref(e.experiment_id, "csv")} className={buttonClasses("secondary")} download>Export CSV</a>
            <a href={exportHref(e.experiment_id, "json")} className={buttonClasses("secondary")} download>Export JSON</a>
            {open && can(user, "experiments:manage") ? <CancelExperimentButton experimentId={e.experiment_id} name={e.name} /> : null}
          </div>
        }
      />
      <div className="space-y-6">
        <p role="note" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200">{r.caveat}</p>
        <section className={panelClass}>
          <FactGrid facts={facts} className="grid-cols-2 lg:grid-cols-4" />
        </section>
        <section className={panelClass} aria-labelledby="checks-title">
          <h2 id="checks-title" className={sectionTitle}>The seed&apos;s checks</h2>
          <ChecksList checks={r.checks} />
        </section>
        <section aria-labelledby="figures-title">
          <h2 id="figures-title" className={sectionTitle}>Figures per arm (mean of case means) and deltas from {e.baseline_arm}</h2>
          <ReportTable report={r} />
        </section>
        <section className={panelClass} aria-labelledby="chart-title">
          <h2 id="chart-title" className={sectionTitle}>Deltas from {e.baseline_arm}</h2>
          <DeltasChart report={r} />
        </section>
        <section aria-labelledby="cases-title">
          <h2 id="cases-title" className={sectionTitle}>Cases ({r.cases.length})</h2>
          <p className="mb-2 text-sm text-slate-600 dark:text-slate-400" data-arm-order={r.arm_order.counterbalanced ? "counterbalanced" : "declared"}>{r.arm_order.statement}</p>
          <CaseDrilldown report={r} />
        </section>
      </div>
    </>
  );
}
