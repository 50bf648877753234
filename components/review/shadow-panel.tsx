// Passive shadow evaluation of a shadow (or candidate) skill: observations, trajectory-match
// rate, matched success rate, last evaluation, the advisory Ready / Not ready verdict with its
// reasons, and the newest evaluations, each linking to its run.
import Link from "@/components/ui/link";
import type { Readiness } from "@/lib/learning/shadow/readiness";
import type { RecentShadowEvaluation } from "@/lib/learning/shadow/recent";
import { Badge } from "../ui/badge";
import { LocalTime } from "../ui/local-time";
import { FactGrid } from "../ui/fact-grid";
import { linkClass, pct, sectionTitle } from "./styles";
import { runHref } from "@/lib/console/links";
import { formatNumber } from "@/lib/text/format";

type Props = {
  observations: number;
  lastEvaluatedAt: string | null;
  readiness: Readiness;
  enabled: boolean;
  recent: RecentShadowEvaluation[];
};

/** The verdict pill, also repeated in the activation dialog. */
function ReadinessPill({ readiness }: { readiness: Readiness }) {
  return readiness.ready ? <Badge tone="green">Ready</Badge> : <Badge tone="gray">Not ready</Badge>;
}

export function ShadowPanel({ observations, lastEvaluatedAt, readiness, enabled, recent }: Props) {
  const facts: [string, React.ReactNode][] = [
    ["Observations", formatNumber(observations)],
    ["Trajectory match", observations ? pct(readiness.trajectory_match_rate) : "—"],
    ["Matched success", observations ? pct(readiness.matched_success_rate) : "—"],
    ["Last evaluation", <LocalTime key="l" iso={lastEvaluatedAt} fallback="never" />],
  ];
  return (
    <div aria-labelledby="shadow-evaluation">
      <h3 id="shadow-evaluation" className={sectionTitle}>
        Shadow evaluation
      </h3>
      <FactGrid facts={facts} className="grid-cols-2 sm:grid-cols-4" />
      <div className="mt-2 flex flex-wrap items-start gap-2 text-sm">
        <ReadinessPill readiness={readiness} />
        {readiness.reasons.length ? (
          <ul className="text-xs text-slate-600 dark:text-slate-400">
            {readiness.reasons.map((r) => <li key={r}>{r}</li>)}
          </ul>
        ) : null}
      </div>
      <p className="mt-1 text-xs text-slate-500">
        Advisory: activation remains an explicit reviewer decision.
        {enabled ? "" : " Passive evaluation is off for this agent (Learning settings)."}
      </p>
      <h4 className="mt-3 text-xs font-semibold text-slate-600 dark:text-slate-400">Recent evaluations</h4>
      {recent.length ? (
        <ul className="mt-1 divide-y divide-slate-100 text-sm dark:divide-slate-800">
          {recent.map((e) => (
            <li key={e.runId} className="flex flex-wrap items-center gap-2 py-1">
              <Link href={runHref(e.runId)} className={`${linkClass} min-w-0 break-all font-normal`}>
                {e.workflowId}
              </Link>
              <Badge tone={e.trajectoryMatch ? "green" : "gray"}>{e.trajectoryMatch ? "path matched" : "other path"}</Badge>
              <Badge status={e.observedOutcome} />
              <span className="text-xs text-slate-500 tabular-nums">similarity {e.similarity.toFixed(2)}</span>
              <span className="ml-auto text-xs text-slate-500">
                <LocalTime iso={e.evaluatedAt} />
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">No observations yet.</p>
      )}
    </div>
  );
}

/** The activation dialog's repeat of a met readiness verdict (a verdict not met lists its reasons there). */
export function ReadyNote({ readiness }: { readiness: Readiness }) {
  return (
    <p role="status" className="flex flex-wrap items-center gap-2 rounded-md bg-emerald-50 px-3 py-2 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200">
      <ReadinessPill readiness={readiness} />
      Shadow readiness is met: {readiness.observations} observations, trajectory match {pct(readiness.trajectory_match_rate)}, matched success{" "}
      {pct(readiness.matched_success_rate)}. Readiness is advisory; your review decides.
    </p>
  );
}
