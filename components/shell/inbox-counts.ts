"use client";
// The sidebar's inbox counts follow the agent in scope: the frame was rendered with the counts
// for its own scope; after a client-side switch to another agent (the frame is not rendered
// again) they are read from /api/console/inbox. Nothing is shown while they load, rather than
// another scope's numbers.
import { useQuery } from "@tanstack/react-query";
import type { InboxCounts } from "@/lib/console/inbox-words";
import { fetchJson } from "@/lib/api/browser-fetch";

export function useInboxCounts(agent: string, renderedAgent: string, rendered: InboxCounts): InboxCounts {
  const other = agent !== renderedAgent;
  const fetched = useQuery({
    queryKey: ["inbox-counts", agent],
    queryFn: () => fetchJson<InboxCounts>(`/api/console/inbox${agent ? `?agent=${encodeURIComponent(agent)}` : ""}`),
    enabled: other,
  });
  return other ? (fetched.data ?? {}) : rendered;
}
