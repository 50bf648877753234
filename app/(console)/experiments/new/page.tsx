// New experiment: the form for the skill in `skill=` (a shadow or active one), or the agent's
// measurable skills to choose from.
import Link from "@/components/ui/link";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { Badge } from "@/components/ui/badge";
import { hrefWith, type SearchParams } from "@/components/ui/table";
import { CreateExperimentForm } from "@/components/experiments/create-form";
import { PageAgent } from "@/components/shell/page-agent";
import { linkClass } from "@/components/review/styles";
import { requireScope } from "@/lib/auth/page-access";
import { readDb } from "@/lib/db/client";
import { loadNewExperimentPage } from "@/lib/experiments/pages/new-experiment";

export const dynamic = "force-dynamic";

export default async function NewExperimentPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  await requireScope(hrefWith("/experiments/new", sp, {}), "experiments:manage");
  const { skill, choices, missing } = await loadNewExperimentPage(await readDb(), sp);
  if (skill) {
    const label = `${skill.name} v${skill.version}`;
    return (
      <>
        <PageAgent id={skill.agentId} />
        <PageHeader title={`Measure ${label}`} description={`Agent ${skill.agentId}. The agent runs every case in every arm with the same model, tools and instruction; Proctor serves each arm's context and scores the reported runs.`} />
        <CreateExperimentForm agentId={skill.agentId} skillId={skill.id} skillLabel={label} />
      </>
    );
  }
  return (
    <>
      <PageHeader title="New experiment" description="Choose the shadow or active skill to measure." />
      {missing ? <p role="alert" className="mb-4 text-sm text-red-700 dark:text-red-300">That skill does not exist or is neither shadow nor active: only those can be measured.</p> : null}
      {choices.length ? (
        <ul className="space-y-2 text-sm">
          {choices.map((s) => (
            <li key={s.id} className="flex items-center gap-2">
              <Badge status={s.status} />
              <Link href={`/experiments/new?skill=${encodeURIComponent(s.id)}`} className={linkClass}>{s.name} v{s.version}</Link>
              <span className="text-xs text-slate-500">{s.agentId}</span>
            </li>
          ))}
        </ul>
      ) : (
        <EmptyState title="No skill to measure">Experiments measure a shadow or active skill; none exists{sp.agent ? " for this agent" : ""} yet.</EmptyState>
      )}
    </>
  );
}
