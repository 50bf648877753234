// Links from persona evidence and reviews into the conversation traces page, in the format the
// persona reference pins (`/traces?agent_id=…&user_id=…&thread_id=…#trace-timeline`); the traces
// page reads `agent_id` as an alias of the console's `agent` scope.
import { threadHref } from "../console/links";

export function traceHref(o: { agentId?: string | null; userId: string; threadId: string; rootTraceId?: string | null }): string {
  return threadHref(o, "agent_id");
}
