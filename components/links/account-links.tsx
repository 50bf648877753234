"use client";
// An account: its persona page (for users who may read personas; for a viewer the id is plain
// text, never a link to a page that answers 403), and its traces.
import { accountTracesHref, personaHref } from "@/lib/console/links";
import { useCan } from "@/components/shell/scopes";
import Link from "@/components/ui/link";
import { linkClass } from "@/components/review/styles";

export function AccountLinks({ userId, agentId }: { userId: string; agentId?: string | null }) {
  const persona = useCan("persona:read");
  return (
    <span className="inline-flex flex-wrap items-baseline gap-x-2">
      {persona ? (
        <Link href={personaHref(userId)} title="Persona of this account" className={`${linkClass} break-all`}>
          {userId}
        </Link>
      ) : (
        <span className="break-all">{userId}</span>
      )}
      <Link href={accountTracesHref(userId, agentId)} className={`${linkClass} text-xs font-normal`}>
        traces
      </Link>
    </span>
  );
}
