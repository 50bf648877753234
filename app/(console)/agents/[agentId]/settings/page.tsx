// An agent's learning settings: every configuration key with its default, grouped, and the
// distiller in use. Viewers may read them; admins save them (audited).
import Link from "@/components/ui/link";
import { notFound } from "next/navigation";
import { PageHeader } from "@/components/ui/page-header";
import { Badge } from "@/components/ui/badge";
import { buttonClasses } from "@/components/ui/button";
import { LearningSettingsForm } from "@/components/review/settings-form";
import { RetentionNote } from "@/components/agents/retention-note";
import { denial } from "@/lib/auth/access";
import { requireScope } from "@/lib/auth/page-access";
import { loadAgentSettingsPage } from "@/lib/learning/pages/agent-settings";
import { readDb } from "@/lib/db/client";
import { agentHref, workflowsHref } from "@/lib/console/links";

export const dynamic = "force-dynamic";

export default async function AgentSettingsPage({ params }: { params: Promise<{ agentId: string }> }) {
  const { agentId } = await params;
  const path = `/agents/${encodeURIComponent(agentId)}/settings`;
  const user = await requireScope(path, "learning:read");
  const view = await loadAgentSettingsPage(await readDb(), agentId);
  if (!view) notFound();
  const { agent, defaults, llm } = view;
  const refused = denial(user, "learning:write");
  const canEdit = refused === null;
  return (
    <>
      <PageHeader
        title={`Learning settings: ${agent.name}`}
        description={
          <span>
            How <code>{agent.id}</code> turns repeated runs into skills: the promotion gates, distillation, shadow review, injection and drift.
          </span>
        }
        actions={
          <>
            <Link href={workflowsHref(agent.id)} className={buttonClasses("secondary")}>
              Trajectory classes
            </Link>
            <Link href={agentHref(agent.id)} className={buttonClasses("ghost")}>
              Agent
            </Link>
          </>
        }
      />
      <section aria-label="Distiller" className="mb-6 flex flex-wrap items-center gap-2 rounded-lg border border-slate-200 px-4 py-3 text-sm dark:border-slate-800">
        <span className="font-medium">Distiller:</span>
        {llm ? (
          <>
            <Badge tone="green">LLM connected</Badge>
            <span>
              model <code>{llm.model}</code> at {llm.endpoint}; it writes each SKILL.md and judges it during validation.
            </span>
          </>
        ) : (
          <>
            <Badge tone="amber">template distiller in use</Badge>
            <span>No LLM is configured (PROCTOR_LLM_BASE_URL or PROCTOR_LLM_API_KEY): skills are written from a deterministic template and flagged for review.</span>
          </>
        )}
      </section>
      <div className="mb-6">
        <RetentionNote learning={agent.learning} />
      </div>
      {!canEdit ? (
        <p role="status" className="mb-4 text-sm text-slate-600 dark:text-slate-400">
          {refused === "read_only" ? "This instance is read-only; settings cannot be changed." : "Only admins can change these settings."}
        </p>
      ) : null}
      <LearningSettingsForm agentId={agent.id} initial={agent.learning} defaults={defaults} canEdit={canEdit} />
    </>
  );
}
