// One agent: its toolbox, a summary of its learning configuration, the OpenTelemetry traces of it
// that made no runs and its newest runs.
import Link from "@/components/ui/link";
import { notFound } from "next/navigation";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { CodeBlock } from "@/components/ui/code-block";
import { CopyButton } from "@/components/ui/copy-button";
import { LocalTime } from "@/components/ui/local-time";
import { Badge } from "@/components/ui/badge";
import { buttonClasses } from "@/components/ui/button";
import { hrefWith, type SearchParams } from "@/components/ui/table";
import { RunsTable } from "@/components/runs/runs-table";
import { ShadowQueue } from "@/components/agents/shadow-queue";
import { RetentionNote } from "@/components/agents/retention-note";
import { DeleteAgentButton } from "@/components/agents/delete-agent-button";
import { UnmappedTraces } from "@/components/agents/unmapped-traces";
import { can } from "@/lib/auth/access";
import { requireScope } from "@/lib/auth/page-access";
import { loadAgentPage } from "@/lib/learning/pages/agent";
import { readDb } from "@/lib/db/client";
import { skillsHref, workflowsHref } from "@/lib/console/links";
import { formatNumber } from "@/lib/text/format";

export const dynamic = "force-dynamic";

/** The settings an admin most often needs at a glance; the full set is one click away. */
const SUMMARY_KEYS = [
  "min_executions",
  "min_success_rate",
  "min_distinct_queries",
  "learning_scope",
  "min_distinct_users",
  "max_days_since_last_seen",
  "require_shadow",
  "auto_activate",
  "require_qualification",
  "shadow_evaluation_enabled",
  "skill_injection_role",
  "retrieval_min_similarity",
  "max_skills_in_context",
  "promotion_every_n_runs",
] as const;

type Props = { params: Promise<{ agentId: string }>; searchParams: Promise<SearchParams> };

export default async function AgentPage({ params, searchParams }: Props) {
  const [{ agentId }, sp] = await Promise.all([params, searchParams]);
  const path = `/agents/${encodeURIComponent(agentId)}`;
  const user = await requireScope(hrefWith(path, sp, {}), "learning:read");
  const view = await loadAgentPage(await readDb(), agentId, sp);
  if (!view) notFound();
  const { agent, q, runs, total, capped, shadow, unmapped } = view;
  const mayEdit = can(user, "learning:write");
  const mayExport = can(user, "runs:export");

  return (
    <>
      <PageHeader
        title={agent.name}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <code>{agent.id}</code>
            <CopyButton value={agent.id} label="Copy id" />
            <span>
              · {formatNumber(agent.runCount)} runs · last run <LocalTime iso={agent.lastRunAt} fallback="never" />
            </span>
          </span>
        }
        actions={
          <>
            <Link href={workflowsHref(agent.id)} className={buttonClasses("secondary")}>
              Trajectory classes
            </Link>
            <Link href={skillsHref(agent.id)} className={buttonClasses("secondary")}>
              Skills
            </Link>
            <Link href={`${path}/settings`} className={buttonClasses(mayEdit ? "primary" : "secondary")}>
              {mayEdit ? "Edit learning settings" : "Learning settings"}
            </Link>
            {mayEdit ? <DeleteAgentButton agentId={agent.id} /> : null}
          </>
        }
      />
      <div className="grid gap-6 lg:grid-cols-2">
        <section aria-labelledby="toolbox">
          <h2 id="toolbox" className="mb-2 text-sm font-semibold text-slate-700 dark:text-slate-300">
            Toolbox ({agent.tools.length})
          </h2>
          {agent.tools.length ? (
            <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
              {agent.tools.map((t) => (
                <li key={t.name} className="px-3 py-2 text-sm">
                  <code className="font-medium">{t.name}</code>
                  {t.description ? <p className="mt-0.5 text-slate-600 dark:text-slate-400">{t.description}</p> : null}
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-500">This agent has declared no tools; skills can only use tools in its toolbox.</p>
          )}
        </section>
        <section aria-labelledby="learning">
          <h2 id="learning" className="mb-2 text-sm font-semibold text-slate-700 dark:text-slate-300">
            Learning configuration
          </h2>
          <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 rounded-lg border border-slate-200 px-3 py-2 text-sm dark:border-slate-800">
            {SUMMARY_KEYS.map((k) => (
              <div key={k} className="contents">
                <dt className="text-slate-600 dark:text-slate-400">
                  <code>{k}</code>
                </dt>
                <dd className="text-right font-mono tabular-nums">{String(agent.learning[k])}</dd>
              </div>
            ))}
          </dl>
          <details className="mt-2 text-sm">
            <summary className="cursor-pointer rounded text-slate-600 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-slate-400">
              All settings and the outcome rule
            </summary>
            <div className="mt-2 space-y-2">
              <CodeBlock value={agent.learning} label="Learning configuration" />
              {agent.outcomeRule ? <CodeBlock value={agent.outcomeRule} label="Outcome rule" /> : <Badge>no outcome rule</Badge>}
            </div>
          </details>
          <RetentionNote learning={agent.learning} />
        </section>
      </div>
      {shadow ? (
        <ShadowQueue
          agentId={agent.id}
          status={shadow}
          enabled={agent.learning.shadow_evaluation_enabled === true}
          queueSize={Number(agent.learning.shadow_evaluation_queue_size)}
          canRetry={mayEdit}
        />
      ) : null}
      <UnmappedTraces rows={unmapped} showAgent={false} />
      <section aria-labelledby="runs" className="mt-8">
        <div className="mb-2 flex items-center justify-between gap-2">
          <h2 id="runs" className="text-sm font-semibold text-slate-700 dark:text-slate-300">
            Runs
          </h2>
          {mayExport ? (
            // A plain download: the route streams every run as JSON lines under the session.
            <a href={`/api/v1/agents/${encodeURIComponent(agent.id)}/workflows/export`} download className={buttonClasses("secondary")}>
              Export runs (JSONL)
            </a>
          ) : null}
        </div>
        <RunsTable
          runs={runs}
          total={total}
          capped={capped}
          page={q.page}
          pageSize={q.page_size}
          dir={q.dir}
          path={path}
          searchParams={sp}
          showAgent={false}
          empty={<EmptyState title="No runs yet">This agent has not sent a run. Runs arrive through POST /api/v1/agents/{agent.id}/workflows.</EmptyState>}
        />
      </section>
    </>
  );
}
