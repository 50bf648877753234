// Skills: what the section is for and what is recorded so far (read-only; viewers may look).
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { Badge } from "@/components/ui/badge";
import { LocalTime } from "@/components/ui/local-time";
import { DataTable } from "@/components/ui/table";
import { requireUser } from "@/lib/auth/page-access";
import { db } from "@/lib/db/client";

export const dynamic = "force-dynamic";

export default async function SkillsPage() {
  await requireUser("/skills");
  const [skills, total] = await Promise.all([
    db().skill.findMany({
      select: { id: true, agentId: true, name: true, status: true, version: true, updatedAt: true },
      orderBy: { updatedAt: "desc" },
      take: 50,
    }),
    db().skill.count(),
  ]);
  return (
    <>
      <PageHeader
        title="Skills"
        description="SKILL.md procedures distilled from an agent's repeated successful runs. New skills wait in shadow until an admin reviews them; active skills are injected into the agent's prompts and demoted when they drift."
      />
      <DataTable
        caption="Skills"
        rows={skills}
        rowKey={(s) => s.id}
        empty={<EmptyState title="No skills recorded yet">Skills appear once an agent's trajectory class passes the promotion gates and is distilled.</EmptyState>}
        columns={[
          { key: "name", header: "Skill", cell: (s) => <span className="font-medium">{s.name}</span> },
          { key: "agent", header: "Agent", cell: (s) => <code className="text-xs">{s.agentId}</code> },
          { key: "status", header: "Status", cell: (s) => <Badge status={s.status.toLowerCase()} /> },
          { key: "version", header: "Version", className: "text-right tabular-nums", cell: (s) => s.version },
          { key: "updated", header: "Updated", cell: (s) => <LocalTime iso={s.updatedAt} /> },
        ]}
      />
      {total > skills.length ? <p className="mt-3 text-sm text-slate-500">Showing the {skills.length} most recently changed of {total} skills.</p> : null}
    </>
  );
}
