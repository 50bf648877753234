// The audit log page: the filter options (the typed events' names and target kinds) and, when
// the URL's filters can be read, one page of events; otherwise the reasons they cannot.
import "server-only";
import type { Db } from "../../db/prisma";
import type { SearchParams } from "../../console/url";
import { AUDIT_EVENT_TYPES, AUDIT_TARGET_TYPES } from "../events";
import { auditQuerySchema, queryAudit } from "../query";

const facets = { actions: AUDIT_EVENT_TYPES, targetTypes: AUDIT_TARGET_TYPES };

export async function loadAuditPage(db: Db, sp: SearchParams) {
  const parsed = auditQuerySchema.safeParse(sp);
  if (!parsed.success) {
    return { facets, invalid: parsed.error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") ?? "" } as const;
  }
  const q = parsed.data;
  const page = await queryAudit(db, q);
  return { facets, invalid: null, q, events: page.events, total: page.total, filtered: Boolean(q.actor || q.action || q.target_type || q.target || q.from || q.to) } as const;
}
