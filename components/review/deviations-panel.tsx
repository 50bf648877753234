// A skill's deviations: runs that listed it in skills_activated but took another path. They are
// kept out of the drift window (they never demote); past the reference's thresholds (more than
// half of at least the grace period's activations) the skill is flagged for review.
import Link from "@/components/ui/link";
import type { SkillDeviationEntry } from "@/lib/learning/review/skill-deviations";
import { Badge } from "../ui/badge";
import { LocalTime } from "../ui/local-time";
import { classHref } from "./report-card";
import { linkClass, pct, sectionTitle, shortHash } from "./styles";
import { runHref } from "@/lib/console/links";
import { formatNumber } from "@/lib/text/format";

type Props = {
  agentId: string;
  userId: string | null;
  activations: number;
  deviations: number;
  /** The grace period: the flag needs at least this many activations. */
  minActivations: number;
  recent: SkillDeviationEntry[];
};

export function DeviationsPanel({ agentId, userId, activations, deviations, minActivations, recent }: Props) {
  return (
    <div aria-labelledby="skill-deviations">
      <h3 id="skill-deviations" className={sectionTitle}>
        Deviations
      </h3>
      <p className="text-sm">
        Deviation rate <strong>{pct(activations ? deviations / activations : null)}</strong>: {formatNumber(deviations)} of {formatNumber(activations)}{" "}
        activation(s) took another path.
      </p>
      <p className="mt-1 text-xs text-slate-500">
        Runs that took another path are not counted in the drift window and never demote the skill; more than half of at least {minActivations} activations flags it for
        review.
      </p>
      {recent.length ? (
        <ul className="mt-2 divide-y divide-slate-100 text-sm dark:divide-slate-800" aria-label="Newest deviations">
          {recent.map((d) => (
            <li key={d.runId} className="flex flex-wrap items-center gap-2 py-1">
              <Badge status={d.outcome.toLowerCase()} />
              <Link href={runHref(d.runId)} className={`${linkClass} min-w-0 break-all font-normal`}>
                {d.query || d.workflowId}
              </Link>
              {d.canonicalHash ? (
                <Link href={classHref(agentId, d.canonicalHash, userId)} className={`${linkClass} font-mono text-xs`} title={d.canonicalHash}>
                  path {shortHash(d.canonicalHash)}…
                </Link>
              ) : (
                <span className="text-xs text-slate-500">no tool called</span>
              )}
              <span className="ml-auto text-xs text-slate-500">
                <LocalTime iso={d.at} />
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
