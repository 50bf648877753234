// One run: what was asked, each tool call with its arguments, result or error, and how the
// outcome was decided.
import { notFound } from "next/navigation";
import { PageHeader } from "@/components/ui/page-header";
import { Badge } from "@/components/ui/badge";
import { CodeBlock } from "@/components/ui/code-block";
import { CopyButton } from "@/components/ui/copy-button";
import { LocalTime } from "@/components/ui/local-time";
import { requireScope } from "@/lib/auth/page-access";
import { loadRunPage } from "@/lib/learning/pages/run";
import { outcomeSourceLabel } from "@/lib/learning/capture/outcome-source";
import { readDb } from "@/lib/db/client";
import { AccountLinks, AgentLink, ClassLink, SkillLink, ThreadLink } from "@/components/links/record-link";
import { PageAgent } from "@/components/shell/page-agent";

export const dynamic = "force-dynamic";

const hasError = (e: unknown) => e !== undefined && e !== null && e !== "";

export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await requireScope(`/workflows/runs/${encodeURIComponent(id)}`, "learning:read");
  const view = await loadRunPage(await readDb(), id);
  if (!view) notFound();
  const { run, skills } = view;
  const skill = (skillId: string) => {
    const s = skills.get(skillId);
    return <SkillLink key={skillId} agentId={run.agentId} id={skillId} name={s?.name} version={s?.version} />;
  };
  const thread = { agentId: run.agentId, userId: run.userId, threadId: run.threadId ?? "" };

  const facts: [string, React.ReactNode][] = [
    ["Agent", <AgentLink key="a" id={run.agentId} name={run.agent.name} />],
    ["Outcome", <span key="o" className="flex items-center gap-2"><Badge status={run.outcome.toLowerCase()} /> <span className="text-xs text-slate-500">decided by {outcomeSourceLabel(run.outcomeSource)}{run.lastStepError ? ` (${run.lastStepError})` : ""}</span></span>],
    ["Created", <LocalTime key="c" iso={run.createdAt} />],
    ["Received", <LocalTime key="r" iso={run.receivedAt} />],
    ["User", run.userId ? <AccountLinks key="u" userId={run.userId} agentId={run.agentId} /> : "—"],
    ["Thread", run.threadId ? <ThreadLink key="t" {...thread} /> : "—"],
    ["Root trace", run.rootTraceId ? (run.threadId ? <ThreadLink key="rt" {...thread} rootTraceId={run.rootTraceId}>{run.rootTraceId}</ThreadLink> : <code key="rt">{run.rootTraceId}</code>) : "—"],
    ["Trajectory class", run.canonicalHash ? <ClassLink key="h" agentId={run.agentId} hash={run.canonicalHash} userId={run.userId}>{run.canonicalHash}</ClassLink> : "none (no steps)"],
    ["Skills activated", run.skillsActivated.length ? <span key="s" className="flex flex-wrap gap-x-3">{run.skillsActivated.map(skill)}</span> : "none"],
    ["Covered by skill", run.promotedSkillId ? skill(run.promotedSkillId) : "—"],
  ];

  return (
    <>
      <PageAgent id={run.agentId} />
      <PageHeader
        title={`Run ${run.workflowId}`}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <code>{run.id}</code>
            <CopyButton value={run.id} label="Copy id" />
          </span>
        }
      />
      <dl className="grid grid-cols-1 gap-x-6 gap-y-2 rounded-lg border border-slate-200 p-4 text-sm sm:grid-cols-[10rem_1fr] dark:border-slate-800">
        {facts.map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="text-slate-500">{k}</dt>
            <dd className="min-w-0 break-words">{v}</dd>
          </div>
        ))}
      </dl>
      {run.learningError ? (
        <p role="status" className="mt-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200">
          Learning error: {run.learningError}. The run counts as a failure for learning.
        </p>
      ) : null}
      {run.forgottenAt || run.expiredAt ? (
        <p role="status" className="mt-4 rounded-md bg-slate-100 px-3 py-2 text-sm text-slate-700 dark:bg-slate-800 dark:text-slate-300">
          {run.forgottenAt ? "Its account was forgotten" : "The agent's run retention expired it"}: the query, steps, answer and errors were removed. Its
          outcome, time and trajectory hash ({run.stepCount} tool calls) still count for learning.
        </p>
      ) : null}
      <section aria-labelledby="query" className="mt-6">
        <h2 id="query" className="mb-2 text-sm font-semibold">Query</h2>
        <CodeBlock value={run.query || "(empty)"} label="Query" />
      </section>
      <section aria-labelledby="steps" className="mt-6">
        <h2 id="steps" className="mb-2 text-sm font-semibold">Tool calls ({run.steps.length})</h2>
        {run.steps.length === 0 ? (
          <p className="text-sm text-slate-500">
            {run.forgottenAt || run.expiredAt ? "Removed." : "This run made no tool calls, so it belongs to no trajectory class."}
          </p>
        ) : (
          <ol className="space-y-3">
            {run.steps.map((s, i) => (
              <li key={i} className="rounded-lg border border-slate-200 p-3 dark:border-slate-800">
                <div className="mb-2 flex flex-wrap items-center gap-2 text-sm">
                  <span className="text-slate-500 tabular-nums">#{i + 1}</span>
                  <code className="font-semibold">{s.tool}</code>
                  {hasError(s.error) ? <Badge tone="red">error</Badge> : <Badge tone="green">ok</Badge>}
                  {s.timestamp ? <LocalTime iso={s.timestamp} /> : null}
                </div>
                <div className="grid gap-2 lg:grid-cols-2">
                  <div>
                    <h3 className="mb-1 text-xs font-medium text-slate-500">Arguments</h3>
                    <CodeBlock value={s.arguments ?? {}} label={`Arguments of step ${i + 1}`} />
                  </div>
                  <div>
                    <h3 className="mb-1 text-xs font-medium text-slate-500">{hasError(s.error) ? "Error" : "Result"}</h3>
                    <CodeBlock value={hasError(s.error) ? s.error : (s.result ?? null)} label={`${hasError(s.error) ? "Error" : "Result"} of step ${i + 1}`} />
                  </div>
                </div>
              </li>
            ))}
          </ol>
        )}
      </section>
      {hasError(run.executionError) ? (
        <section aria-labelledby="exec" className="mt-6">
          <h2 id="exec" className="mb-2 text-sm font-semibold">Execution error</h2>
          <CodeBlock value={run.executionError} label="Execution error" />
        </section>
      ) : null}
      <section aria-labelledby="answer" className="mt-6">
        <h2 id="answer" className="mb-2 text-sm font-semibold">Answer</h2>
        <CodeBlock value={run.answer ?? "(none)"} label="Answer" />
      </section>
    </>
  );
}
