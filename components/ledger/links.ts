// Console addresses for ledger records. Ids and scope labels are arbitrary text, so they
// travel as query parameters rather than path segments.
import type { EvidenceRun } from "@/lib/ledger/evidence";
import type { LedgerScope } from "@/lib/ledger/types";
import { runHref, threadHref } from "@/lib/console/links";

export function procedureHref(scope: LedgerScope, id: string, extra: Record<string, string | number> = {}): string {
  const q = new URLSearchParams({ ...scope, id });
  for (const [k, v] of Object.entries(extra)) q.set(k, String(v));
  return `/ledger/procedure?${q.toString()}`;
}


/**
 * Evidence references that name a Proctor run link to it: `proctor:workflow:<run id>`, and
 * `run:<workflow id>` / `trace:<root trace id>` resolved to `run` by the page's loader (a trace
 * opens its thread's timeline when the run has one).
 */
export function evidenceHref(ref: string, run?: EvidenceRun): string | null {
  const m = /^proctor:workflow:(.+)$/s.exec(ref);
  if (m) return runHref(m[1]);
  if (!run) return null;
  if (ref.startsWith("trace:") && run.userId && run.threadId) {
    return threadHref({ agentId: run.agentId, userId: run.userId, threadId: run.threadId, rootTraceId: run.rootTraceId });
  }
  return runHref(run.runId);
}
