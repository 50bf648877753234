// One line of a skill's paired-evaluation qualification: ledger state, n / trials, mean
// improvement and its lower bound against min_improvement, and a link to the procedure page.
// Shown on the skill page and in the activation dialog.
import Link from "@/components/ui/link";
import type { SkillQualificationSummary } from "@/lib/ledger/skills";
import { fixed, Progress } from "../ledger/figures";
import { procedureHref } from "../ledger/links";
import { Badge } from "../ui/badge";
import { linkClass } from "./styles";
import { formatNumber } from "@/lib/text/format";

export function QualificationLine({ q }: { q: SkillQualificationSummary }) {
  return (
    <div className="space-y-1 text-sm" data-testid="qualification-line">
      <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Badge status={q.state}>ledger: {q.state}</Badge>
        <Progress n={q.n} of={q.trials} />
        <span className="tabular-nums">mean improvement {fixed(q.meanImprovement)}</span>
        <span className="tabular-nums">
          lower bound {fixed(q.lowerBound)} (needs ≥ {q.minImprovement})
        </span>
      </p>
      <p className="text-xs text-slate-600 dark:text-slate-400">
        Against baseline <code>{q.baselineRevision}</code>
        {q.monitoringCount ? ` · ${formatNumber(q.monitoringCount)} monitoring cases` : ""} ·{" "}
        <Link href={procedureHref(q.scope, q.procedureId)} className={linkClass}>
          Open the ledger procedure
        </Link>
      </p>
    </div>
  );
}
