// The immutable proposal: instructions, provenance and the fixed policy it is judged by.
import { CodeBlock } from "@/components/ui/code-block";
import { LocalTime } from "@/components/ui/local-time";
import type { ProcedureProposal } from "@/lib/ledger/types";
import { formatNumber } from "@/lib/text/format";

export function ProposalPanel({ proposal, createdAt }: { proposal: ProcedureProposal; createdAt: Date }) {
  const p = proposal.policy;
  const rows: [string, React.ReactNode][] = [
    ["Task", proposal.task],
    ["Baseline revision", proposal.baseline_revision],
    ["Evaluator", p.evaluator_id],
    ["Evaluation contract", p.evaluation_contract],
    ["Qualification trials", formatNumber(p.qualification_trials)],
    ["Confidence δ", p.confidence_delta],
    ["Min improvement", p.min_improvement],
    ["Min candidate utility", p.min_candidate_utility],
    ["Max cost units", formatNumber(p.max_cost_units)],
    ["Max latency", `${formatNumber(p.max_latency_ms)} ms`],
    ["Max failure streak", p.max_failure_streak],
    ["Proposed", <LocalTime key="t" iso={createdAt} />],
  ];
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <div>
        <h3 className="mb-1 text-xs font-medium text-slate-500">Instructions</h3>
        <CodeBlock value={proposal.instructions} label="Instructions" />
        <h3 className="mt-3 mb-1 text-xs font-medium text-slate-500">Source references ({proposal.source_refs.length})</h3>
        <ul className="space-y-0.5 font-mono text-xs break-all">
          {proposal.source_refs.map((r, i) => (
            <li key={i}>{r}</li>
          ))}
        </ul>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 self-start text-sm">
        {rows.map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="text-slate-500">{k}</dt>
            <dd className="break-all">{v}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
