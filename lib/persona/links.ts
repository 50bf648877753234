// Links from persona evidence and reviews into the conversation traces page.
export function traceHref(o: { agentId?: string | null; userId: string; threadId: string; rootTraceId?: string | null }): string {
  const q = new URLSearchParams({ agent_id: o.agentId ?? "", user_id: o.userId, thread_id: o.threadId });
  if (o.rootTraceId) q.set("root_trace_id", o.rootTraceId);
  return `/traces?${q.toString()}#trace-timeline`;
}
