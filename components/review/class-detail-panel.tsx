// The selected trajectory class: status, hash, covering or in-review skill, every gate with
// its detail and what it measures, the 30-day chart, the newest runs (paged) and, for admins,
// Distill now and Run promotion cycle.
import Link from "@/components/ui/link";
import type { ClassDetail, ClassRun } from "@/lib/learning/review/class-detail";
import { GATE_LABEL, GATE_MEASURES } from "@/lib/learning/review/status";
import { CLASS_WORDS } from "@/lib/learning/review/vocabulary";
import { Badge } from "../ui/badge";
import { CopyButton } from "../ui/copy-button";
import { LocalTime } from "../ui/local-time";
import { Pagination } from "../ui/table";
import { FactGrid } from "../ui/fact-grid";
import { ClassStatusBadge } from "./class-status-badge";
import { DailyChart } from "./daily-chart";
import { ClassActions } from "./learning-actions";
import { skillHref } from "./report-card";
import { linkClass, panelClass, pct, sectionTitle, shortHash } from "./styles";
import { agentHref, runHref } from "@/lib/console/links";
import { AccountLinks } from "../links/record-link";
import { formatNumber } from "@/lib/text/format";

type Props = {
  detail: ClassDetail;
  runs: ClassRun[];
  runsPage: number;
  runsPageSize: number;
  runsHref: (page: number) => string;
  canAct: boolean;
};

export function ClassDetailPanel({ detail: d, runs, runsPage, runsPageSize, runsHref, canAct }: Props) {
  const failed = d.executions - d.successes;
  const passed = d.gates.filter((g) => g.passed).length;
  const facts: [string, React.ReactNode][] = [
    ["Runs", <>{formatNumber(d.executions)} <span className="text-xs text-slate-500">({failed} failed)</span></>],
    ["Success", pct(d.executions ? d.successes / d.executions : null)],
    ["Distinct queries", formatNumber(d.distinctQueries)],
    [
      "Distinct accounts",
      <>
        {formatNumber(d.distinctUsers)}{" "}
        <span className="text-xs text-slate-500">
          {d.minDistinctUsers > 0 ? `(need ${d.minDistinctUsers} when any)` : d.learningScope === "user" ? "(per-account scope)" : "(not gated)"}
        </span>
      </>,
    ],
    ["Gates passed", `${passed} / ${d.gates.length}`],
    ["First seen", <LocalTime key="f" iso={d.firstSeen} />],
    ["Last seen", <LocalTime key="l" iso={d.lastSeen} />],
  ];
  const userId = d.key.userScope || null;
  return (
    <section id="class-detail" aria-labelledby="class-detail-title" className={`${panelClass} min-w-0 scroll-mt-20 space-y-5`}>
      <header className="space-y-2">
        <h2 id="class-detail-title" className="font-mono text-sm font-semibold break-words">
          {d.tools.join(" → ") || "(no steps recorded)"}
        </h2>
        <div className="flex flex-wrap items-center gap-2 text-xs">
          <ClassStatusBadge status={d.status} />
          <code title={d.key.canonicalHash}>{shortHash(d.key.canonicalHash)}</code>
          <CopyButton value={d.key.canonicalHash} label="Copy hash" />
          <Link href={agentHref(d.key.agentId)} className={linkClass}>
            {d.agentName}
          </Link>
          {userId ? (
            <span className="break-all text-slate-600 dark:text-slate-400">
              user <AccountLinks userId={userId} agentId={d.key.agentId} />
            </span>
          ) : (
            <span className="text-slate-600 dark:text-slate-400">agent-wide{d.learningScope === "agent" ? ": every account's runs" : ""}</span>
          )}
        </div>
      </header>

      {d.live ? (
        <p className="rounded-md bg-slate-50 px-3 py-2 text-sm dark:bg-slate-900">
          {d.live.status === "active" ? CLASS_WORDS.coveredBy : "In review"}:{" "}
          <Link href={skillHref(d.key.agentId, d.live.id)} className={linkClass}>
            {d.live.name} v{d.live.version}
          </Link>{" "}
          <Badge status={d.live.status} />{" "}
          {d.live.status === "active"
            ? "While the skill is active, these runs are suppressed from workflow retrieval."
            : "The skill awaits an explicit reviewer decision; the class is not distilled again meanwhile."}
        </p>
      ) : null}
      {d.retired ? (
        <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200">
          <Link href={skillHref(d.key.agentId, d.retired.id)} className={linkClass}>
            {d.retired.name} v{d.retired.version}
          </Link>{" "}
          was {d.retired.status} <LocalTime iso={d.retired.demotedAt} />: {d.retired.demotionReason ?? "no reason recorded"}.
          {d.since ? " The gates count only the runs after that." : null}
        </p>
      ) : null}

      {canAct ? <ClassActions key={`${d.key.agentId}:${d.key.userScope}:${d.key.canonicalHash}`} agentId={d.key.agentId} hash={d.key.canonicalHash} userId={userId} eligible={d.eligible} /> : null}

      <FactGrid facts={facts} />

      <div>
        <h3 className={sectionTitle}>Promotion gates</h3>
        {d.since ? <p className="mb-2 text-xs text-slate-500">Counted over the runs since <LocalTime iso={d.since} /> (the last retirement).</p> : null}
        <ul className="space-y-2" aria-label="Promotion gates">
          {d.gates.map((g) => (
            <li key={g.name} data-gate={g.name} data-passed={g.passed} className="flex gap-2 text-sm">
              <span aria-hidden className={g.passed ? "text-emerald-600 dark:text-emerald-400" : "text-red-600 dark:text-red-400"}>
                {g.passed ? "✓" : "✗"}
              </span>
              <span className="min-w-0">
                <span className="font-medium">{GATE_LABEL[g.name]}</span> <span className="sr-only">{g.passed ? "passed" : "failed"}</span>
                <span className="text-slate-700 dark:text-slate-300">— {g.detail}</span>
                <span className="block text-xs text-slate-500 dark:text-slate-400">{GATE_MEASURES[g.name]}</span>
              </span>
            </li>
          ))}
        </ul>
      </div>

      <div>
        <h3 className={sectionTitle}>Failure modes observed</h3>
        {d.failureModes.length ? (
          <ul className="list-disc space-y-1 pl-5 text-sm" aria-label="Failure modes observed">
            {d.failureModes.map((m) => (
              <li key={m.tool} className="break-words">
                <code>{m.tool}</code> {m.errorTypes.length ? <>failed with <strong>{m.errorTypes.join(", ")}</strong></> : "returned a result that failed the run's outcome check"}{" "}
                <span className="text-slate-500">
                  in {m.runs} of the {d.failuresSampled} newest failed run(s)
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-400">None: no run of this class failed.</p>
        )}
      </div>

      <div>
        <h3 className={sectionTitle}>Daily success, last 30 days</h3>
        <DailyChart points={d.daily} />
      </div>

      <div>
        <h3 className={sectionTitle}>Runs</h3>
        <ul className="divide-y divide-slate-100 text-sm dark:divide-slate-800" aria-label="Runs of this class">
          {runs.map((r) => (
            <li key={r.id} className="flex flex-wrap items-start gap-x-2 gap-y-0.5 py-1.5">
              <Badge status={r.outcome.toLowerCase()} />
              <span className="text-xs text-slate-500">
                <LocalTime iso={r.createdAt} />
              </span>
              {r.promotedSkillId ? <Badge tone="gray">Suppressed</Badge> : null}
              <Link href={runHref(r.id)} className={`${linkClass} block w-full min-w-0 font-normal break-words`}>
                {r.query || "(no user query)"}
              </Link>
            </li>
          ))}
        </ul>
        <Pagination page={runsPage} pageSize={runsPageSize} total={d.executions} href={runsHref} />
      </div>
    </section>
  );
}
