// One thread as a timeline: messages, workflow runs with expandable tool steps and the skills
// supplied to them, and persona reviews (status and usage only). React escapes all text.
import Link from "next/link";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { CodeBlock } from "@/components/ui/code-block";
import { outcomeSourceLabel } from "@/lib/learning/outcome-source";
import { LocalTime } from "@/components/ui/local-time";
import type { TimelineEvent } from "@/lib/traces/timeline";

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
        <Link href={`/workflows/runs/${encodeURIComponent(e.id)}`} className="min-w-0 break-all text-indigo-700 hover:underline dark:text-indigo-300">
          {e.workflowId}
        </Link>
        <Badge status={e.outcome.toLowerCase()} />
        <span className="text-xs text-slate-500">decided by {outcomeSourceLabel(e.outcomeSource)}</span>
        <When at={e.at} />
      </header>
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
              {[`${s.id}${s.version !== null ? ` v${s.version}` : ""}`, s.name, s.status?.toLowerCase()].filter(Boolean).join(" · ")}
            </span>
          ))
        )}
      </div>
      <ol className="space-y-1">
        {e.steps.map((s, i) => (
          <li key={i}>
            <details className="rounded-md border border-slate-200 dark:border-slate-800">
              <summary className="flex cursor-pointer flex-wrap items-center gap-2 px-2 py-1.5">
                <span className="text-slate-500 tabular-nums">#{i + 1}</span>
                <code className="font-semibold break-all">{s.tool}</code>
                {present(s.error) ? <Badge tone="red">error</Badge> : <Badge tone="green">ok</Badge>}
              </summary>
              <div className="grid gap-2 p-2 lg:grid-cols-2">
                <div className="min-w-0">
                  <h4 className="mb-1 text-xs font-medium text-slate-500">Arguments</h4>
                  <CodeBlock value={s.arguments ?? {}} label={`Arguments of step ${i + 1}`} />
                </div>
                <div className="min-w-0">
                  <h4 className="mb-1 text-xs font-medium text-slate-500">{present(s.error) ? "Error" : "Result"}</h4>
                  <CodeBlock value={present(s.error) ? s.error : s.result} label={`${present(s.error) ? "Error" : "Result"} of step ${i + 1}`} />
                </div>
              </div>
            </details>
          </li>
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

function Review({ e }: { e: Extract<TimelineEvent, { kind: "review" }> }) {
  const usage = [
    `${e.evidenceCount} messages reviewed`,
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
