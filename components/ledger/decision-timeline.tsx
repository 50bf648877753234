// State transitions in order, each with the case that triggered it.
import { Badge } from "@/components/ui/badge";
import { LocalTime } from "@/components/ui/local-time";
import type { LedgerDecision } from "@/lib/ledger/types";

export function DecisionTimeline({ decisions }: { decisions: LedgerDecision[] }) {
  if (decisions.length === 0) {
    return <p className="text-sm text-slate-600 dark:text-slate-400">No decision yet: the procedure stays a candidate until its last qualification trial.</p>;
  }
  return (
    <ol className="space-y-3 border-l border-slate-200 pl-4 dark:border-slate-800">
      {decisions.map((d, i) => (
        <li key={i} className="text-sm">
          <div className="flex flex-wrap items-center gap-2">
            <Badge status={d.from} /> → <Badge status={d.to} />
            <LocalTime iso={d.recorded_at} />
          </div>
          <p className="mt-1">{d.reason}</p>
          <p className="text-xs text-slate-500">
            triggered by case <code className="break-all">{d.triggering_case}</code>
          </p>
        </li>
      ))}
    </ol>
  );
}
