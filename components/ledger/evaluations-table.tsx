// A procedure's receipts in arrival order, evidence references linked when they name a Proctor run.
import Link from "@/components/ui/link";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import { DataTable, Pagination } from "@/components/ui/table";
import type { EvidenceRun } from "@/lib/ledger/evidence";
import type { EvaluationReceipt } from "@/lib/ledger/types";
import { Figure } from "./figures";
import { evidenceHref } from "./links";
import { formatNumber } from "@/lib/text/format";

type Row = EvaluationReceipt & { seq: number };

function Evidence({ value, run }: { value: string; run?: EvidenceRun }) {
  const href = evidenceHref(value, run);
  const text = <span className="block max-w-[16rem] font-mono text-xs wrap-anywhere">{value}</span>;
  return href ? (
    <Link href={href} className="text-indigo-700 hover:underline dark:text-indigo-300">
      {text}
    </Link>
  ) : (
    text
  );
}

type Props = { rows: Row[]; evidence: Record<string, EvidenceRun>; total: number; page: number; pageSize: number; href: (page: number) => string };

export function EvaluationsTable({ rows, evidence, total, page, pageSize, href }: Props) {
  return (
    <>
      <DataTable<Row>
        caption="Evaluations"
        rows={rows}
        rowKey={(r) => String(r.seq)}
        empty={<EmptyState title="No evaluations yet">A trusted evaluator reports paired cases with POST /api/v1/ledger/procedures/{"{id}"}/evaluations.</EmptyState>}
        columns={[
          { key: "seq", header: "#", className: "text-right tabular-nums", cell: (r) => r.seq },
          { key: "case", header: "Case", cell: (r) => <code className="block max-w-[12rem] text-xs wrap-anywhere">{r.evaluation.case_id}</code> },
          { key: "phase", header: "Phase", cell: (r) => r.evaluation.phase },
          { key: "evidence", header: "Evidence", cell: (r) => <Evidence value={r.evaluation.evidence_ref} run={evidence[r.evaluation.evidence_ref]} /> },
          { key: "baseline", header: "Baseline", className: "text-right tabular-nums", cell: (r) => <Figure value={r.evaluation.baseline_utility} /> },
          { key: "candidate", header: "Candidate", className: "text-right tabular-nums", cell: (r) => <Figure value={r.evaluation.candidate_utility} /> },
          { key: "cost", header: "Cost", className: "text-right tabular-nums", cell: (r) => formatNumber(r.evaluation.candidate_cost_units) },
          { key: "latency", header: "Latency (ms)", className: "text-right tabular-nums", cell: (r) => formatNumber(r.evaluation.candidate_latency_ms) },
          { key: "after", header: "State after", cell: (r) => <Badge status={r.state_after} /> },
          { key: "at", header: "Recorded", cell: (r) => <LocalTime iso={r.recorded_at} /> },
        ]}
      />
      {rows.length > 0 || page > 1 ? <Pagination page={page} pageSize={pageSize} total={total} href={href} /> : null}
    </>
  );
}
