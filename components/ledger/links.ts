// Console addresses for ledger records. Ids and scope labels are arbitrary text, so they
// travel as query parameters rather than path segments.
import type { LedgerScope } from "@/lib/ledger/types";

export function procedureHref(scope: LedgerScope, id: string, extra: Record<string, string | number> = {}): string {
  const q = new URLSearchParams({ ...scope, id });
  for (const [k, v] of Object.entries(extra)) q.set(k, String(v));
  return `/ledger/procedure?${q.toString()}`;
}

/** Evidence references that name a Proctor run (`proctor:workflow:<run id>`) link to its page. */
export function evidenceHref(ref: string): string | null {
  const m = /^proctor:workflow:(.+)$/s.exec(ref);
  return m ? `/workflows/runs/${encodeURIComponent(m[1])}` : null;
}
