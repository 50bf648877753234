// One ledger procedure (admins only): the immutable proposal, the qualification chart, the
// decision timeline and the evaluations in arrival order. Scope and id come from the URL.
import Link from "@/components/ui/link";
import { notFound } from "next/navigation";
import { PageHeader } from "@/components/ui/page-header";
import { Badge } from "@/components/ui/badge";
import { hrefWith, type SearchParams } from "@/components/ui/table";
import { fixed, gateExplanations, Progress } from "@/components/ledger/figures";
import { ProposalPanel } from "@/components/ledger/proposal-panel";
import { DecisionTimeline } from "@/components/ledger/decision-timeline";
import { EvaluationsTable } from "@/components/ledger/evaluations-table";
import { QualificationChart } from "@/components/ledger/qualification-chart";
import { procedureHref } from "@/components/ledger/links";
import { requireScope } from "@/lib/auth/page-access";
import { readDb } from "@/lib/db/client";
import { PAGE_SIZE } from "@/lib/ledger/console";
import { loadProcedurePage } from "@/lib/ledger/pages/procedure";

export const dynamic = "force-dynamic";

export default async function ProcedurePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  await requireScope(hrefWith("/ledger/procedure", sp, {}), "ledger:read");
  const view = await loadProcedurePage(await readDb(), sp);
  if (!view) notFound();
  const { scope, id, page, record, series, evaluations } = view;
  const policy = record.proposal.policy;
  const gates = gateExplanations(view.failedGates, { ...record, policy });
  const facts: [string, React.ReactNode][] = [
    ["State", <Badge key="s" status={record.state} />],
    ["Qualification", <Progress key="p" n={record.qualification_count} of={policy.qualification_trials} />],
    ["Mean improvement", fixed(record.qualification_count ? record.mean_improvement : null, 4)],
    ["Mean candidate utility", fixed(record.qualification_count ? record.mean_candidate_utility : null, 4)],
    ["Lower bound", fixed(record.lower_improvement_bound, 4)],
    ["Budget violations", record.budget_violations],
    ["Monitoring cases", record.monitoring_count],
    ["Failure streak", `${record.failure_streak} / ${policy.max_failure_streak}`],
  ];
  return (
    <>
      <PageHeader
        title={`Procedure ${record.proposal.id}`}
        description={
          <>
            <span className="break-all">
              {scope.tenant} / {scope.agent} / {scope.environment}
            </span>{" "}
            · <Link href="/ledger" className="text-indigo-700 hover:underline dark:text-indigo-300">all procedures</Link>
          </>
        }
      />
      {gates.length ? (
        <section aria-label="Failed gates" className="mb-6 rounded-lg border border-red-300 bg-red-50 p-4 text-sm dark:border-red-900 dark:bg-red-950/40">
          <h2 className="font-semibold">Rejected at n = {policy.qualification_trials}: which gates failed</h2>
          <ul className="mt-2 list-disc pl-5">
            {gates.map((g) => (
              <li key={g}>{g}</li>
            ))}
          </ul>
        </section>
      ) : null}
      <dl className="mb-6 grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:grid-cols-4">
        {facts.map(([k, v]) => (
          <div key={k}>
            <dt className="text-xs text-slate-500">{k}</dt>
            <dd className="mt-0.5 tabular-nums">{v}</dd>
          </div>
        ))}
      </dl>
      <section className="mb-8">
        <h2 className="mb-2 text-base font-semibold">Qualification</h2>
        <QualificationChart points={series} trials={policy.qualification_trials} minImprovement={policy.min_improvement} />
      </section>
      <section className="mb-8">
        <h2 className="mb-2 text-base font-semibold">Decisions</h2>
        <DecisionTimeline decisions={record.decisions} />
      </section>
      <section className="mb-8">
        <h2 className="mb-2 text-base font-semibold">Proposal (immutable)</h2>
        <ProposalPanel proposal={record.proposal} createdAt={record.created_at} />
      </section>
      <section>
        <h2 className="mb-2 text-base font-semibold">Evaluations</h2>
        <EvaluationsTable rows={evaluations.rows} evidence={view.evidence} total={evaluations.total} page={page} pageSize={PAGE_SIZE} href={(p) => procedureHref(scope, id, { page: p })} />
      </section>
    </>
  );
}
