// Links to records, one per record type, all built from lib/console/links.ts: the run page,
// the timeline, the audit log and the tables name a record and link to it the same way.
import Link from "@/components/ui/link";
import { linkClass } from "@/components/review/styles";
import { agentHref, classHref, runHref, skillHref, threadHref } from "@/lib/console/links";

type Children = { children?: React.ReactNode; className?: string };

/** `main`: the link a click anywhere on its table row follows (DataTable's `rowLink`). */
export function RecordLink({ href, children, className = "", title, main }: { href: string; title?: string; main?: boolean } & Children) {
  return (
    <Link href={href} title={title} data-row-main={main || undefined} className={`${linkClass} break-all ${className}`}>
      {children}
    </Link>
  );
}

export const AgentLink = ({ id, name, children }: { id: string; name?: string | null } & Children) => (
  <RecordLink href={agentHref(id)}>{children ?? (name && name !== id ? `${name} (${id})` : id)}</RecordLink>
);

export const RunLink = ({ id, children, main }: { id: string; main?: boolean } & Children) => (
  <RecordLink href={runHref(id)} main={main}>
    {children ?? id}
  </RecordLink>
);

export const SkillLink = ({ agentId, id, name, version, children }: { agentId: string; id: string; name?: string | null; version?: number | null } & Children) => (
  <RecordLink href={skillHref(agentId, id)} title={id}>
    {children ?? (name ? `${name}${version != null ? ` v${version}` : ""}` : id)}
  </RecordLink>
);

/** A trajectory class by its short hash (the full hash on hover). */
export const ClassLink = ({ agentId, hash, userId, children }: { agentId: string; hash: string; userId: string | null } & Children) => (
  <RecordLink href={classHref(agentId, hash, userId)} title={hash} className="font-mono text-xs">
    {children ?? hash.slice(0, 12)}
  </RecordLink>
);

export const ThreadLink = (t: { agentId?: string | null; userId?: string | null; threadId: string; rootTraceId?: string | null } & Children) => (
  <RecordLink href={threadHref(t)}>{t.children ?? t.threadId}</RecordLink>
);

/** An account: its persona page where the user may open it, and its traces. */
export { AccountLinks } from "./account-links";
