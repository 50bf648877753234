// One stored promotion report: the skills it created (linked), rejected with every reason,
// skipped, deferred past the per-cycle cap, deprecated, and the review flags.
import Link from "@/components/ui/link";
import type { ReportWithSkills } from "@/lib/learning/review/reports";
import { CREATED_SKILLS } from "@/lib/learning/review/vocabulary";
import { Badge } from "../ui/badge";
import { LocalTime } from "../ui/local-time";
import { linkClass, shortHash } from "./styles";
import { classHref, skillHref } from "@/lib/console/links";

const TRIGGER: Record<string, string> = { manual: "Promotion cycle", cadence: "Automatic cycle", distill: "Distill now" };
const SHOWN = 5;

export { classHref, skillHref };

function SkillItem({ id, agentId, data }: { id: string; agentId: string; data: ReportWithSkills["skills"] }) {
  const s = data[id];
  return (
    <li className="flex flex-wrap items-center gap-2">
      <Link href={skillHref(agentId, id)} className={linkClass}>
        {s ? `${s.name} v${s.version}` : id}
      </Link>
      {s ? <Badge status={s.status} /> : null}
    </li>
  );
}

function Section({ title, tone, children }: { title: string; tone: string; children: React.ReactNode }) {
  return (
    <div className={`border-l-2 pl-3 ${tone}`}>
      <h4 className="text-xs font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-400">{title}</h4>
      <div className="mt-1 text-sm">{children}</div>
    </div>
  );
}

export function ReportCard({ data, agentName }: { data: ReportWithSkills; agentName?: string }) {
  const r = data.report;
  const empty = !r.promoted.length && !r.rejected.length && !r.skipped.length && !r.deferred.length && !r.deprecated.length && !r.review_flags.length;
  const hash = (h: string, u: string | null) => (
    <Link href={classHref(r.agent_id, h, u)} className={`${linkClass} font-mono text-xs`} title={h}>
      {shortHash(h)}…
    </Link>
  );
  /** The distinct accounts the gates counted (reports stored before the count have none). */
  const accounts = (n: number | undefined) =>
    n === undefined ? null : <span className="text-xs text-slate-500 dark:text-slate-400">{n === 1 ? "1 account" : `${n} accounts`} </span>;
  return (
    <article aria-label={`${TRIGGER[r.trigger] ?? r.trigger} report`} data-report-id={r.id} className="space-y-3 rounded-lg border border-slate-200 p-4 dark:border-slate-800">
      <header className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <span className="font-semibold">{TRIGGER[r.trigger] ?? r.trigger}</span>
        {agentName ? <span className="text-slate-600 dark:text-slate-400">{agentName}</span> : null}
        <LocalTime iso={r.started_at} />
        <span className="text-xs text-slate-500 dark:text-slate-400">
          {r.candidates_considered} eligible · {r.distiller === "llm" ? "LLM distiller" : "template distiller"}
          {r.learning_scope ? ` · ${r.learning_scope === "agent" ? "agent-wide classes" : "per-account classes"}` : ""}
        </span>
      </header>
      {empty ? <p className="text-sm text-slate-600 dark:text-slate-400">No trajectory classes were eligible this cycle.</p> : null}
      {r.promoted.length ? (
        <Section title={`${CREATED_SKILLS} (${r.promoted.length})`} tone="border-emerald-500">
          <ul className="space-y-1">{r.promoted.map((id) => <SkillItem key={id} id={id} agentId={r.agent_id} data={data.skills} />)}</ul>
        </Section>
      ) : null}
      {r.rejected.length ? (
        <Section title={`Rejected (${r.rejected.length})`} tone="border-red-500">
          <ul className="space-y-1.5">
            {r.rejected.map((x) => (
              <li key={`${x.canonical_hash}:${x.user_id ?? ""}`}>
                {hash(x.canonical_hash, x.user_id)} {accounts(x.distinct_users)}
                <ul className="ml-4 list-disc text-slate-700 dark:text-slate-300">
                  {x.reasons.map((reason, i) => <li key={i} className="break-words">{reason}</li>)}
                </ul>
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
      {r.deprecated.length ? (
        <Section title={`Deprecated (${r.deprecated.length})`} tone="border-amber-500">
          <ul className="space-y-1">{r.deprecated.map((id) => <SkillItem key={id} id={id} agentId={r.agent_id} data={data.skills} />)}</ul>
        </Section>
      ) : null}
      {r.review_flags.length ? (
        <Section title="Needs review" tone="border-amber-500">
          <ul className="list-disc space-y-1 pl-4">{r.review_flags.map((f, i) => <li key={i} className="break-words">{f}</li>)}</ul>
        </Section>
      ) : null}
      {r.deferred.length ? (
        <Section title={`Deferred to the next cycle (${r.deferred.length})`} tone="border-sky-500">
          <p className="flex flex-wrap gap-2">{r.deferred.map((h) => <span key={h}>{hash(h, null)}</span>)}</p>
        </Section>
      ) : null}
      {r.skipped.length ? (
        <Section title={`Skipped (${r.skipped.length})`} tone="border-slate-400">
          <SkippedList items={r.skipped} render={(x) => <>{hash(x.canonical_hash, x.user_id)} {accounts(x.distinct_users)}<span className="break-words text-slate-700 dark:text-slate-300">{x.reason}</span></>} />
        </Section>
      ) : null}
    </article>
  );
}

type Skipped = ReportWithSkills["report"]["skipped"][number];

function SkippedList({ items, render }: { items: Skipped[]; render: (x: Skipped) => React.ReactNode }) {
  const li = (x: Skipped, i: number) => <li key={`${x.canonical_hash}:${x.user_id ?? ""}:${i}`}>{render(x)}</li>;
  if (items.length <= SHOWN) return <ul className="space-y-1">{items.map(li)}</ul>;
  return (
    <>
      <ul className="space-y-1">{items.slice(0, SHOWN).map(li)}</ul>
      <details className="mt-1">
        <summary className="cursor-pointer rounded text-xs text-slate-600 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-slate-400">
          {items.length - SHOWN} more
        </summary>
        <ul className="mt-1 space-y-1">{items.slice(SHOWN).map((x, i) => li(x, i + SHOWN))}</ul>
      </details>
    </>
  );
}
