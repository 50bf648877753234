// Small renderings shared by the ledger pages: numbers, qualification progress, failed gates.
import type { Gate } from "@/lib/ledger/arithmetic";
import { formatNumber } from "@/lib/text/format";

export const fixed = (v: number | null, digits = 3) => (v === null ? "—" : v.toFixed(digits));

/** A reported figure at three significant digits; the exact value in its tooltip. */
export function Figure({ value }: { value: number }) {
  const shown = Number.isInteger(value) ? formatNumber(value) : String(Number(value.toPrecision(3)));
  return <span title={shown === String(value) ? undefined : String(value)}>{shown}</span>;
}

export function Progress({ n, of }: { n: number; of: number }) {
  const pct = Math.min(100, (n / of) * 100);
  return (
    <span className="inline-flex min-w-[7rem] flex-col gap-1">
      <span className="tabular-nums">
        {formatNumber(n)} / {formatNumber(of)}
      </span>
      <span className="h-1.5 w-full rounded bg-slate-200 dark:bg-slate-800" role="progressbar" aria-valuemin={0} aria-valuemax={of} aria-valuenow={n}>
        <span className="block h-1.5 rounded bg-indigo-500" style={{ width: `${pct}%` }} />
      </span>
    </span>
  );
}

type GateFacts = {
  lower_improvement_bound: number | null;
  mean_candidate_utility: number;
  budget_violations: number;
  policy: { min_improvement: number; min_candidate_utility: number };
};

/** One sentence per failed promotion gate, with the numbers that failed it. */
export function gateExplanations(gates: Gate[], r: GateFacts): string[] {
  return gates.map((g) => {
    if (g === "improvement_bound") return `Improvement: lower bound ${fixed(r.lower_improvement_bound, 4)} is below min_improvement ${r.policy.min_improvement}.`;
    if (g === "candidate_utility") return `Quality: mean candidate utility ${fixed(r.mean_candidate_utility, 4)} is below min_candidate_utility ${r.policy.min_candidate_utility}.`;
    return `Resources: ${r.budget_violations} qualification case${r.budget_violations === 1 ? " was" : "s were"} over the cost or latency limit.`;
  });
}
