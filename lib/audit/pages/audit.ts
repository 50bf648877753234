// The audit log page: the filter options and, when the URL's filters can be read, one page of
// events (both read in parallel); otherwise the reasons they cannot.
import "server-only";
import type { Db } from "../../db/prisma";
import type { SearchParams } from "../../console/url";
import { auditFacets, auditQuerySchema, queryAudit } from "../query";

export async function loadAuditPage(db: Db, sp: SearchParams) {
  const parsed = auditQuerySchema.safeParse(sp);
  const [facets, page] = await Promise.all([auditFacets(db), parsed.success ? queryAudit(db, parsed.data) : Promise.resolve(null)]);
  if (!parsed.success || !page) {
    return { facets, invalid: parsed.error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") ?? "" } as const;
  }
  const q = parsed.data;
  return { facets, invalid: null, q, events: page.events, total: page.total, filtered: Boolean(q.actor || q.action || q.target_type || q.target || q.from || q.to) } as const;
}
