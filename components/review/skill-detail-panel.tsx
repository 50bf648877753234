// The selected skill: description, preconditions, SKILL.md (rendered, raw, copy), stats with
// the rolling success against the frozen baseline, shadow readiness, the demotion reason, the
// source class and runs, the version history with a diff, the lifecycle and audit history,
// and, for admins, the review decisions. An imported skill also shows its folder's files (a viewer
// for text files), its scripts and the review warnings of its import.
import Link from "@/components/ui/link";
import type { SkillDetail } from "@/lib/learning/review/skill-detail";
import { SKILL_EVENT_LABEL } from "@/lib/learning/review/vocabulary";
import { Badge } from "../ui/badge";
import { buttonClasses } from "../ui/button";
import { CopyButton } from "../ui/copy-button";
import { LocalTime } from "../ui/local-time";
import { FactGrid } from "../ui/fact-grid";
import { AuditEventSummary } from "../audit/event-summary";
import { classHref } from "./report-card";
import { DeviationsPanel } from "./deviations-panel";
import { QualificationPanel } from "./qualification-panel";
import { RollingChart } from "./rolling-chart";
import { SkillActions } from "./skill-actions";
import { ShadowPanel } from "./shadow-panel";
import { SkillContent } from "./skill-content";
import { ReviewWarnings, SkillFilesPanel } from "./skill-files-panel";
import { VersionDiff } from "./version-diff";
import { ImpactPanel } from "./impact-panel";
import { linkClass, panelClass, pct, sectionTitle, shortHash } from "./styles";
import { agentHref, runHref } from "@/lib/console/links";
import { AccountLinks } from "../links/record-link";
import { formatNumber, pluralise } from "@/lib/text/format";


/**
 * `canAct`: decision buttons (admins, not read-only). `isAdmin`: who decided is shown to admins only.
 * `canMeasure`: the link to create an experiment for a shadow or active skill.
 */
export function SkillDetailPanel({
  detail: d,
  canAct,
  isAdmin,
  canMeasure = false,
  fileHref = (p) => `?skill=${encodeURIComponent(d.skill.skill_id)}&file=${encodeURIComponent(p)}`,
  closeFileHref = `?skill=${encodeURIComponent(d.skill.skill_id)}`,
}: {
  detail: SkillDetail;
  canAct: boolean;
  isAdmin: boolean;
  canMeasure?: boolean;
  /** Where an imported file opens in the viewer, and where the viewer closes (the page's URL state). */
  fileHref?: (path: string) => string;
  closeFileHref?: string;
}) {
  const s = d.skill;
  const label = `${s.name} v${s.version}`;
  const baseline = (s.baseline ?? {}) as { executions?: number; success_rate?: number };
  const baseRate = typeof baseline.success_rate === "number" ? baseline.success_rate : null;
  const decided = s.stats.successes + s.stats.failures;
  const facts: [string, React.ReactNode][] = [
    ["Activations", formatNumber(s.stats.activations)],
    ["Succeeded", formatNumber(s.stats.successes)],
    ["Failed", formatNumber(s.stats.failures)],
    ["Success", pct(decided ? s.stats.successes / decided : null)],
    ["Deviations", formatNumber(s.stats.deviations)],
    ["Baseline", baseRate === null ? "—" : `${pct(baseRate)} of ${baseline.executions ?? "?"} runs`],
  ];
  const lifecycle: [string, React.ReactNode][] = [
    ["Version", `v${s.version}`],
    ["Authority", s.injection_role],
    ["Agent", <Link key="a" href={agentHref(s.agent_id)} className={linkClass}>{d.agentName}</Link>],
    ["User scope", s.user_id ? <AccountLinks key="u" userId={s.user_id} agentId={s.agent_id} /> : "runs without a user"],
    ["Created", <LocalTime key="c" iso={s.created_at} />],
    ["Active since", <LocalTime key="p" iso={s.promoted_at} fallback="not active yet" />],
    ["Distiller", s.imported_folder ? "none: imported Agent Skills folder" : s.template_distilled ? "template (no LLM configured)" : "LLM"],
  ];
  const shadow = s.stats.shadow;
  return (
    <section id="skill-detail" aria-labelledby="skill-detail-title" className={`${panelClass} min-w-0 scroll-mt-20 space-y-5`}>
      <header className="space-y-2">
        <h2 id="skill-detail-title" className="text-base font-semibold break-words">
          {s.name} <span className="text-sm font-normal text-slate-500">v{s.version}</span>
        </h2>
        <div className="flex flex-wrap items-center gap-2 text-xs">
          <Badge status={s.status} />
          <Badge tone={s.injection_role === "developer" ? "violet" : "gray"}>authority: {s.injection_role}</Badge>
          {s.imported_folder ? <Badge tone="blue">imported folder</Badge> : null}
          {s.scripts.length ? <Badge tone="red">bundles {pluralise(s.scripts.length, "script")}</Badge> : null}
          <code title={s.skill_id}>{s.skill_id}</code>
          <CopyButton value={s.skill_id} label="Copy id" />
        </div>
        <p className="text-sm text-slate-700 dark:text-slate-300">{s.description}</p>
      </header>

      {canAct ? (
        <SkillActions
          key={`${s.skill_id}:${s.status}`}
          skillId={s.skill_id}
          label={label}
          status={s.status}
          requireShadow={d.config.require_shadow}
          readiness={s.status === "shadow" || s.status === "candidate" ? s.readiness : null}
          shadowEvaluationEnabled={d.config.shadow_evaluation_enabled}
          qualification={d.qualification ?? null}
          activationBlocker={d.activationBlocker ?? null}
          scripts={s.scripts}
        />
      ) : null}

      <ReviewWarnings warnings={s.review_warnings} fileHref={fileHref} />

      {canMeasure && (s.status === "shadow" || s.status === "active") ? (
        <Link href={`/experiments/new?skill=${encodeURIComponent(s.skill_id)}`} className={buttonClasses("secondary", "sm")}>
          Measure this skill
        </Link>
      ) : null}

      {s.demotion_reason ? (
        <p role="note" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-900 dark:bg-red-950 dark:text-red-200">
          {s.status === "deprecated" ? "Deprecated" : s.status === "rejected" ? "Rejected" : "Demoted"} <LocalTime iso={s.demoted_at} />: {s.demotion_reason}
        </p>
      ) : null}
      {s.review_flags.length ? (
        <ul className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200">
          {s.review_flags.map((f) => <li key={f}>Needs review: {f}</li>)}
        </ul>
      ) : null}

      <div>
        <h3 className={sectionTitle}>Preconditions</h3>
        {s.preconditions.length ? (
          <ul className="list-disc space-y-1 pl-5 text-sm">{s.preconditions.map((p, i) => <li key={i} className="break-words">{p}</li>)}</ul>
        ) : (
          <p className="text-sm text-slate-500">None recorded.</p>
        )}
        <p className="mt-2 text-xs text-slate-500">
          Tools: <span className="font-mono">{s.tools.join(", ") || "none"}</span>
        </p>
      </div>

      <div>
        <h3 className={sectionTitle}>SKILL.md</h3>
        <SkillContent content={s.content} />
        {d.sourceRuns.length ? (
          <>
            <h4 className="mt-3 mb-1 text-xs font-medium text-slate-500">Distilled from these runs of its source class</h4>
            <SourceRunsNote runs={d.sourceRuns} />
            <ul className="space-y-1 text-sm">
              {d.sourceRuns.map((r) => (
                <li key={r.id} className="flex items-start gap-2">
                  <Badge status={r.outcome.toLowerCase()} />
                  <Link href={runHref(r.id)} className={`${linkClass} min-w-0 flex-1 font-normal break-words`}>
                    {r.query || r.workflowId}
                  </Link>
                  {r.forgottenAt ? <span className="text-xs text-slate-500">forgotten</span> : r.expiredAt ? <span className="text-xs text-slate-500">expired</span> : null}
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </div>

      {s.imported_folder ? <SkillFilesPanel skill={s} view={d.file} fileHref={fileHref} closeHref={closeFileHref} /> : null}

      <div>
        <h3 className={sectionTitle}>Stats</h3>
        <FactGrid facts={facts} className="grid-cols-2 sm:grid-cols-3" />
        <div className="mt-3">
          <RollingChart outcomes={s.stats.recent_outcomes} baseline={baseRate} delta={d.config.demotion_success_delta} />
        </div>
      </div>

      <ImpactPanel impact={d.impact} qualification={d.qualification} />

      {s.stats.activations > 0 ? (
        <DeviationsPanel
          agentId={s.agent_id}
          userId={s.user_id}
          activations={s.stats.activations}
          deviations={s.stats.deviations}
          minActivations={d.config.min_activations_before_drift_check}
          recent={d.deviations}
        />
      ) : null}

      {s.status === "shadow" || s.status === "candidate" ? (
        <ShadowPanel
          observations={shadow.observations}
          lastEvaluatedAt={shadow.last_evaluated_at}
          readiness={s.readiness}
          enabled={d.config.shadow_evaluation_enabled}
          recent={d.shadowRecent}
        />
      ) : null}

      {d.qualification !== undefined ? (
        <QualificationPanel key={`${s.skill_id}:qualification`} skillId={s.skill_id} label={label} status={s.status} qualification={d.qualification} canAct={canAct} />
      ) : null}

      <div>
        <h3 className={sectionTitle}>Lifecycle</h3>
        <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[8rem_1fr]">
          {lifecycle.map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="text-slate-500">{k}</dt>
              <dd className="min-w-0 break-words">{v}</dd>
            </div>
          ))}
          <div className="contents">
            <dt className="text-slate-500">{s.imported_folder ? "Folder sha256" : "Source class"}</dt>
            <dd className="min-w-0">
              {s.imported_folder ? (
                <code className="text-xs" title={s.imported_folder.sha256}>
                  {shortHash(s.imported_folder.sha256)}…
                </code>
              ) : (
                <Link href={classHref(s.agent_id, s.source_canonical_hash, s.user_id)} className={`${linkClass} font-mono text-xs`} title={s.source_canonical_hash}>
                  {shortHash(s.source_canonical_hash)}…
                </Link>
              )}
            </dd>
          </div>
        </dl>
      </div>

      <div>
        <h3 className={sectionTitle}>Versions</h3>
        {d.versions.length > 1 ? (
          <VersionDiff currentId={s.skill_id} versions={d.versions.map((v) => ({ id: v.id, version: v.version, status: v.status, content: v.content }))} />
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-400">This is the only version distilled from its class.</p>
        )}
      </div>

      <div>
        <h3 className={sectionTitle}>History</h3>
        <ol className="space-y-2 text-sm" aria-label="Lifecycle events">
          {d.events.map((e) => (
            <li key={e.id} className="border-l-2 border-slate-300 pl-3 dark:border-slate-700">
              <span className="font-medium">{SKILL_EVENT_LABEL[e.event] ?? e.event}</span> <span className="text-xs text-slate-500"><LocalTime iso={e.at} />{isAdmin || e.actor === "system" ? ` · ${e.actor}` : ""}</span>
              {e.reason ? <span className="block break-words text-slate-700 dark:text-slate-300">{e.reason}</span> : null}
            </li>
          ))}
        </ol>
        {d.audit.length ? (
          <>
            <h4 className="mt-4 mb-1 text-xs font-medium text-slate-500">Audit log</h4>
            <ol className="space-y-2 text-sm" aria-label="Audit entries">
              {d.audit.map((a) => (
                <li key={a.id} data-action={a.action} className="border-l-2 border-indigo-300 pl-3 dark:border-indigo-800">
                  <span className="block break-words">{a.event ? <AuditEventSummary event={a.event} names={d.auditNames} /> : <code className="text-xs">{a.action}</code>}</span>
                  <span className="text-xs text-slate-500">
                    <LocalTime iso={a.at} /> · {a.actorLabel ?? "system"}
                    {a.actorRole ? ` (${a.actorRole})` : ""}
                  </span>
                </li>
              ))}
            </ol>
            <Link href={`/audit?target_type=skill&target=${encodeURIComponent(s.skill_id)}`} className={`${linkClass} mt-2 inline-block text-xs`}>
              Open in the audit log
            </Link>
          </>
        ) : null}
      </div>
    </section>
  );
}

/** Says when the sample runs' text is gone (their account forgotten, or retention): the skill stays as reviewed. */
function SourceRunsNote({ runs }: { runs: SkillDetail["sourceRuns"] }) {
  const forgotten = runs.filter((r) => r.forgottenAt).length;
  const expired = runs.filter((r) => !r.forgottenAt && r.expiredAt).length;
  if (!forgotten && !expired) return null;
  const parts = [
    forgotten ? `${forgotten === runs.length ? "All" : `${forgotten} of ${runs.length}`} sample runs were forgotten (their account was forgotten)` : null,
    expired ? `${expired} expired under the agent's run retention` : null,
  ].filter(Boolean);
  return (
    <p className="mb-1 text-xs text-slate-600 dark:text-slate-400" data-testid="source-runs-forgotten">
      {parts.join("; ")}. Their queries and steps are gone; the skill, its statistics and its class stay.
    </p>
  );
}
