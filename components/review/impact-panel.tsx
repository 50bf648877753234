// Does the skill help? Its class's runs in the window before activation against the window
// after (observational: labelled so, with counts and 95% intervals), beside the causal evidence
// that exists: the skill's experiments (arms with tokens and latency) and its ledger qualification.
import Link from "@/components/ui/link";
import type { ImpactSide, Interval, SkillImpact } from "@/lib/learning/review/skill-impact";
import type { SkillQualificationSummary } from "@/lib/ledger/skills";
import { LocalTime } from "../ui/local-time";
import { QualificationLine } from "./qualification-line";
import { linkClass, pct, sectionTitle } from "./styles";

const num = (n: number | null, digits = 1) => (n === null ? "—" : n.toLocaleString("en", { maximumFractionDigits: digits }));
const range = (i: Interval | null, f: (n: number) => string) => (i ? `${f(i.low)}–${f(i.high)}` : "—");

function Row({ label, before, after }: { label: string; before: React.ReactNode; after: React.ReactNode }) {
  return (
    <tr>
      <th scope="row" className="py-1 pr-3 text-left font-normal text-slate-600 dark:text-slate-400">{label}</th>
      <td className="py-1 pr-3 tabular-nums">{before}</td>
      <td className="py-1 tabular-nums">{after}</td>
    </tr>
  );
}

const rate = (s: ImpactSide) => (
  <>
    {pct(s.successRate)} <span className="text-xs text-slate-500">({range(s.successInterval, (n) => pct(n))})</span>
  </>
);
const steps = (s: ImpactSide) => (
  <>
    {num(s.stepsMean)} <span className="text-xs text-slate-500">({range(s.stepsInterval, (n) => num(n))})</span>
  </>
);
const runs = (s: ImpactSide) => `${s.runs.toLocaleString("en")}${s.capped ? "+ (newest read)" : ""}`;

export function ImpactPanel({ impact, qualification }: { impact: SkillImpact; qualification?: SkillQualificationSummary | null }) {
  const { before, after } = impact;
  return (
    <section aria-labelledby="impact-title" data-testid="skill-impact">
      <h3 id="impact-title" className={sectionTitle}>Impact</h3>
      {before && after ? (
        <>
          <p className="mb-2 text-xs text-slate-600 dark:text-slate-400">
            Observational: the class&apos;s runs in the {impact.windowDays} days before activation (<LocalTime iso={impact.activatedAt} />) and after it. Other things changed
            too; this is not a controlled comparison. Brackets: 95% intervals.
          </p>
          <table className="w-full text-sm">
            <caption className="sr-only">The class before and after activation</caption>
            <thead>
              <tr className="text-left text-xs text-slate-500">
                <th scope="col" className="py-1 pr-3 font-medium"><span className="sr-only">Measure</span></th>
                <th scope="col" className="py-1 pr-3 font-medium">Before</th>
                <th scope="col" className="py-1 font-medium">After</th>
              </tr>
            </thead>
            <tbody>
              <Row label="Runs" before={runs(before)} after={runs(after)} />
              <Row label="Success rate" before={rate(before)} after={rate(after)} />
              <Row label="Steps per run" before={steps(before)} after={steps(after)} />
              <Row label="Tokens, latency" before="not recorded on runs" after="see experiments" />
            </tbody>
          </table>
        </>
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-400">Not activated yet: the before/after comparison starts at activation.</p>
      )}
      <h4 className="mt-3 mb-1 text-xs font-medium text-slate-600 dark:text-slate-400">Causal evidence</h4>
      {impact.experiments.length ? (
        <ul className="space-y-2 text-sm">
          {impact.experiments.map((e) => (
            <li key={e.id}>
              <Link href={`/experiments/${encodeURIComponent(e.id)}`} className={linkClass}>{e.name}</Link> <span className="text-xs text-slate-500">({e.status})</span>
              {e.arms.length ? (
                <ul className="mt-1 pl-4 text-xs text-slate-600 tabular-nums dark:text-slate-400">
                  {e.arms.map((a) => (
                    <li key={a.arm}>
                      {a.arm}: {a.runs.toLocaleString("en")} runs reported · {num(a.tokensMean, 0)} tokens · {num(a.latencyMsMean, 0)} ms per run (means)
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="pl-4 text-xs text-slate-500">No runs reported yet.</p>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-400">No experiment measures this skill.</p>
      )}
      {qualification ? (
        <div className="mt-2 text-sm">
          <QualificationLine q={qualification} />
        </div>
      ) : qualification === null ? (
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">No ledger qualification started.</p>
      ) : null}
    </section>
  );
}
