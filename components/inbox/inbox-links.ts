// Where each inbox row's decision is made, and each group's full list.
import type { InboxKind } from "@/lib/console/inbox";
import type { InboxTarget } from "@/lib/console/pages/inbox";
import { procedureHref } from "@/components/ledger/links";
import { classHref, skillHref } from "@/components/review/report-card";
import { webhooksHref } from "@/lib/console/links";

export function inboxHref(t: InboxTarget): string {
  switch (t.type) {
    case "skill":
      return skillHref(t.agentId, t.skillId);
    case "class":
      return classHref(t.agentId, t.hash, t.userId);
    case "persona":
      return `/persona-evolution?${new URLSearchParams({ user_id: t.userId })}`;
    case "procedure":
      return procedureHref(t.scope, t.id);
    case "agent":
      return `/agents${t.agentId ? `/${encodeURIComponent(t.agentId)}` : ""}${t.anchor ? `#${t.anchor}` : ""}`;
    case "webhooks":
      return webhooksHref();
  }
}

/** The page that lists every item of a group, kept to the chosen agent. */
export function groupHref(kind: InboxKind, agent: string | undefined): string {
  const q = (o: Record<string, string | undefined>) => {
    const s = new URLSearchParams(Object.entries(o).filter((e): e is [string, string] => !!e[1])).toString();
    return s ? `?${s}` : "";
  };
  switch (kind) {
    case "ready_skills":
      return `/skills${q({ agent, status: "ready" })}`;
    case "shadow_skills":
      return `/skills${q({ agent, status: "shadow" })}`;
    case "ready_classes":
      return `/workflows${q({ agent, status: "ready" })}`;
    case "persona_proposals":
      return `/accounts${q({ agent, pending: "1" })}`;
    case "deviations":
      return `/skills${q({ agent, status: "active", sort: "deviations" })}`;
    case "suspended_procedures":
      return `/ledger${q({ agent, state: "suspended" })}`;
    case "dead_jobs":
      return agent ? `/agents/${encodeURIComponent(agent)}#shadow-queue` : "/agents";
    case "unmapped_traces":
      return agent ? `/agents/${encodeURIComponent(agent)}#unmapped-traces` : "/agents#unmapped-traces";
    case "failed_webhooks":
      return webhooksHref();
  }
}
