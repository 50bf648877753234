// One thread as a timeline: messages, workflow runs with expandable tool steps and the skills
// supplied to them, and persona reviews (status and usage only). React escapes all text.
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { CodeBlock } from "@/components/ui/code-block";
import { outcomeSourceLabel } from "@/lib/learning/capture/outcome-source";
import { LocalTime } from "@/components/ui/local-time";
import { AccountLinks, ClassLink, RunLink, SkillLink } from "@/components/links/record-link";
import type { TimelineEvent, TraceStep } from "@/lib/traces/timeline";
import { pluralise } from "@/lib/text/format";

const present = (v: unknown) => v !== undefined && v !== null && v !== "";
const card = "min-w-0 rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-800";

const REVIEW_TONE: Record<string, BadgeTone> = { failed: "red", approved: "green", proposed: "blue", reviewing: "blue" };

export function TraceTimeline({ events, rootTraceId }: { events: TimelineEvent[]; rootTraceId: string }) {
  return (
    <ol className="space-y-3">
      {events.map((e) => {
        const focus = rootTraceId !== "" && e.rootTraceId === rootTraceId;
        return (
          <li key={`${e.kind}:${e.id}`} data-kind={e.kind} className={focus ? "rounded-lg ring-2 ring-indigo-400" : undefined}>
            {e.kind === "message" ? <Message e={e} /> : e.kind === "run" ? <Run e={e} /> : <Review e={e} />}
          </li>
        );
      })}
    </ol>
  );
}

function When({ at }: { at: Date }) {
  return (
    <span className="ml-auto text-xs text-slate-500">
      <LocalTime iso={at} />
    </span>
  );
}

function Message({ e }: { e: Extract<TimelineEvent, { kind: "message" }> }) {
  return (
    <article className={`${card} ${e.role === "user" ? "bg-slate-50 dark:bg-slate-900/50" : ""}`}>
      <header className="mb-1 flex flex-wrap items-center gap-2">
        <Badge tone={e.role === "user" ? "blue" : e.role === "tool" ? "amber" : "gray"}>{e.role}</Badge>
        <span className="min-w-0 text-xs break-all text-slate-500">message {e.messageId}</span>
        <When at={e.at} />
      </header>
      <p className="break-words whitespace-pre-wrap">{e.text}</p>
    </article>
  );
}

function Run({ e }: { e: Extract<TimelineEvent, { kind: "run" }> }) {
  return (
    <article className={card}>
      <header className="mb-2 flex flex-wrap items-center gap-2">
        <span className="font-semibold">Workflow run</span>
        <RunLink id={e.id}>{e.workflowId}</RunLink>
        <Badge status={e.outcome.toLowerCase()} />
        <span className="text-xs text-slate-500">decided by {outcomeSourceLabel(e.outcomeSource)}</span>
        <When at={e.at} />
      </header>
      <p className="mb-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600 dark:text-slate-400">
        <span>
          Class {e.canonicalHash ? <ClassLink agentId={e.agentId} hash={e.canonicalHash} userId={e.userId} /> : "none (no steps)"}
        </span>
        {e.userId ? (
          <span>
            Account <AccountLinks userId={e.userId} agentId={e.agentId} />
          </span>
        ) : null}
      </p>
      <p className="mb-2 break-words whitespace-pre-wrap">
        <span className="text-slate-500">Query: </span>
        {e.query}
      </p>
      <div className="mb-2 flex flex-wrap items-center gap-2 text-xs">
        <span className="text-slate-500">Skill context supplied:</span>
        {e.skills.length === 0 ? (
          <span>none</span>
        ) : (
          e.skills.map((s) => (
            <span key={s.id} className="rounded bg-violet-50 px-1.5 py-0.5 break-all text-violet-900 dark:bg-violet-950 dark:text-violet-200">
              <SkillLink agentId={e.agentId} id={s.id} name={s.name} version={s.version} />
              {s.status ? ` · ${s.status.toLowerCase()}` : ""}
            </span>
          ))
        )}
      </div>
      <ol className="space-y-1">
        {e.steps.map((s, i) => (
          <Step key={i} step={s} n={i + 1} />
        ))}
      </ol>
      {present(e.executionError) ? (
        <div className="mt-2">
          <h4 className="mb-1 text-xs font-medium text-red-700 dark:text-red-300">Execution error</h4>
          <CodeBlock value={e.executionError} label="Execution error" />
        </div>
      ) : null}
      {e.answer ? (
        <p className="mt-2 break-words whitespace-pre-wrap">
          <span className="text-slate-500">Answer: </span>
          {e.answer}
        </p>
      ) : null}
    </article>
  );
}

const ms = (v: number) => (v < 1000 ? `${Math.round(v)} ms` : `${(v / 1000).toFixed(v < 10_000 ? 2 : 1)} s`);

/** What is known of a step's timing: its own duration, else the time until the next step started. */
function stepTiming(s: TraceStep): string {
  if (s.durationMs !== null) return ms(s.durationMs);
  if (s.untilNextMs !== null) return `≤ ${ms(s.untilNextMs)} (until the next step)`;
  return "not recorded (steps carry only a start time)";
}

/** One tool step, collapsed to its tool and status; opened, its arguments, result or error, and timing. */
function Step({ step: s, n }: { step: TraceStep; n: number }) {
  const failed = present(s.error);
  return (
    <li>
      <details className="rounded-md border border-slate-200 dark:border-slate-800" data-testid="trace-step">
        <summary className="flex cursor-pointer flex-wrap items-center gap-2 px-2 py-1.5">
          <span className="text-slate-500 tabular-nums">#{n}</span>
          <code className="font-semibold break-all">{s.tool}</code>
          {failed ? <Badge tone="red">error</Badge> : <Badge tone="green">ok</Badge>}
          {s.durationMs !== null ? <span className="text-xs text-slate-500 tabular-nums">{ms(s.durationMs)}</span> : null}
        </summary>
        <div className="space-y-2 p-2">
          <p className="text-xs text-slate-600 dark:text-slate-400">
            {s.timestamp ? (
              <>
                Started <LocalTime iso={s.timestamp} /> ·{" "}
              </>
            ) : null}
            Duration: {stepTiming(s)}
          </p>
          <div className="grid gap-2 lg:grid-cols-2">
            <div className="min-w-0">
              <h4 className="mb-1 text-xs font-medium text-slate-500">Arguments</h4>
              <CodeBlock value={s.arguments ?? {}} label={`Arguments of step ${n}`} />
            </div>
            <div className="min-w-0">
              <h4 className="mb-1 text-xs font-medium text-slate-500">{failed ? "Error" : "Result"}</h4>
              <CodeBlock value={failed ? s.error : s.result} label={`${failed ? "Error" : "Result"} of step ${n}`} />
            </div>
          </div>
        </div>
      </details>
    </li>
  );
}

function Review({ e }: { e: Extract<TimelineEvent, { kind: "review" }> }) {
  const usage = [
    `${pluralise(e.evidenceCount, "message")} reviewed`,
    `${e.selectedCount} selected`,
    `trigger ${e.trigger}`,
    e.model ? `model ${e.model}` : null,
    e.inputTokens !== null || e.outputTokens !== null ? `${e.inputTokens ?? "?"} in / ${e.outputTokens ?? "?"} out tokens` : null,
    e.durationMs !== null ? `${(e.durationMs / 1000).toFixed(1)} s` : null,
    e.estimatedCostUsd !== null ? `≈ $${e.estimatedCostUsd.toFixed(4)}` : null,
  ].filter(Boolean);
  return (
    <article className={`${card} border-dashed`}>
      <header className="mb-1 flex flex-wrap items-center gap-2">
        <span className="font-semibold">Persona review</span>
        <Badge tone={REVIEW_TONE[e.status] ?? "gray"}>{e.status.replace(/_/g, " ")}</Badge>
        <span className="min-w-0 text-xs break-all text-slate-500">review {e.id}</span>
        <When at={e.at} />
      </header>
      <p className="text-slate-600 dark:text-slate-400">{usage.join(" · ")}</p>
      {e.failure ? <p className="mt-1 text-red-700 dark:text-red-300">{e.failure}</p> : null}
    </article>
  );
}
