// An agent's learning settings: every configuration key with its default, grouped, and the
// distiller in use. Viewers may read them; admins save them (audited).
import Link from "next/link";
import { notFound } from "next/navigation";
import { PageHeader } from "@/components/ui/page-header";
import { Badge } from "@/components/ui/badge";
import { buttonClasses } from "@/components/ui/button";
import { LearningSettingsForm } from "@/components/review/settings-form";
import { requireUser } from "@/lib/auth/page-access";
import { getAgentDetail } from "@/lib/console/agents";
import { db } from "@/lib/db/client";
import { DEFAULT_LEARNING_CONFIG } from "@/lib/learning/config";
import { llmConfigFromEnv } from "@/lib/llm/client";

export const dynamic = "force-dynamic";

/** Where the model lives, without any credentials a URL might carry. */
function endpointLabel(baseURL: string | undefined): string {
  if (!baseURL) return "the OpenAI API";
  try {
    return new URL(baseURL).host;
  } catch {
    return "a configured endpoint";
  }
}

export default async function AgentSettingsPage({ params }: { params: Promise<{ agentId: string }> }) {
  const { agentId } = await params;
  const path = `/agents/${encodeURIComponent(agentId)}/settings`;
  const user = await requireUser(path);
  const agent = await getAgentDetail(db(), agentId);
  if (!agent) notFound();
  const llm = llmConfigFromEnv();
  const canEdit = user.role === "ADMIN" && process.env.PROCTOR_READ_ONLY !== "1";
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
            <Link href={`/workflows?agent=${encodeURIComponent(agent.id)}`} className={buttonClasses("secondary")}>
              Trajectory classes
            </Link>
            <Link href={`/agents/${encodeURIComponent(agent.id)}`} className={buttonClasses("ghost")}>
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
              model <code>{llm.model}</code> at {endpointLabel(llm.baseURL)}; it writes each SKILL.md and judges it during validation.
            </span>
          </>
        ) : (
          <>
            <Badge tone="amber">template distiller in use</Badge>
            <span>No LLM is configured (PROCTOR_LLM_BASE_URL or PROCTOR_LLM_API_KEY): skills are written from a deterministic template and flagged for review.</span>
          </>
        )}
      </section>
      {!canEdit ? (
        <p role="status" className="mb-4 text-sm text-slate-600 dark:text-slate-400">
          {user.role === "ADMIN" ? "This instance is read-only; settings cannot be changed." : "Only admins can change these settings."}
        </p>
      ) : null}
      <LearningSettingsForm agentId={agent.id} initial={agent.learning} defaults={DEFAULT_LEARNING_CONFIG} canEdit={canEdit} />
    </>
  );
}
