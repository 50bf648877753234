// Supporting memories: each quote links to its conversation in the traces timeline.
import type { EvidenceItem } from "@/lib/persona/types";
import { traceHref } from "@/lib/persona/links";
import { LocalTime } from "@/components/ui/local-time";

export function EvidenceList(props: { items: EvidenceItem[]; userId: string; agentId: string; title: string; linkLabel: string }) {
  const { items, userId, agentId, title, linkLabel } = props;
  if (items.length === 0) return null;
  return (
    <details open className="pe-evidence group rounded-md border border-slate-200 dark:border-slate-800">
      <summary className="cursor-pointer px-3 py-2 text-sm font-medium">
        {`${title} ${items.length} supporting ${items.length === 1 ? "memory" : "memories"}`}
      </summary>
      <ul className="space-y-2 px-3 pb-3">
        {items.map((item, i) => (
          <li key={`${item.thread_id}:${item.id}:${i}`}>
            <blockquote className="border-l-4 border-indigo-300 pl-3 text-sm dark:border-indigo-700">
              {item.expired ? (
                <p className="text-slate-500 italic dark:text-slate-400">Expired: the agent&apos;s conversation retention deleted this message and its quote.</p>
              ) : (
                <p className="break-words whitespace-pre-wrap">{item.text}</p>
              )}
              <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-500 dark:text-slate-400">
                <a
                  className="font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300"
                  href={traceHref({ agentId: item.agent_id || agentId, userId, threadId: item.thread_id })}
                >
                  {linkLabel} ↗
                </a>
                <span className="break-all">Memory {item.id}</span>
                <LocalTime iso={item.timestamp} />
              </div>
            </blockquote>
          </li>
        ))}
      </ul>
    </details>
  );
}
