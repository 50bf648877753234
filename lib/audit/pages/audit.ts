// The audit log page: the filter options (the typed events' names and target kinds) and, when
// the URL's filters can be read, one page of events with the names of what they point at;
// otherwise the reasons they cannot. Persona page views are left out unless `views=show`.
import "server-only";
import type { Db } from "../../db/prisma";
import type { SearchParams } from "../../console/url";
import { accountPseudonym } from "../../persona/audit";
import { AUDIT_EVENT_TYPES, AUDIT_TARGET_TYPES } from "../events";
import { auditNames } from "../names";
import { auditQuerySchema, queryAudit, VIEW_EVENT } from "../query";

const facets = { actions: AUDIT_EVENT_TYPES, targetTypes: AUDIT_TARGET_TYPES };

/** `canReadPersonas`: account rows are named and linked only for a reader of personas. */
export async function loadAuditPage(db: Db, sp: SearchParams, canReadPersonas = false) {
  const parsed = auditQuerySchema.safeParse(sp);
  if (!parsed.success) {
    return { facets, invalid: parsed.error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") ?? "" } as const;
  }
  const q = { ...parsed.data, views: parsed.data.views ?? "hide" };
  const [page, pseudonym] = await Promise.all([queryAudit(db, q), q.account ? accountPseudonym(db, q.account) : null]);
  const typed = page.events.flatMap((e) => (e.event ? [e.event] : []));
  const names = await auditNames(db, typed, pseudonym && q.account ? { pseudonym, userId: q.account } : undefined, canReadPersonas);
  return {
    facets,
    invalid: null,
    q,
    events: page.events,
    total: page.total,
    names,
    viewsShown: q.views === "show" || q.action === VIEW_EVENT,
    filtered: Boolean(q.actor || q.action || q.target_type || q.target || q.account || q.from || q.to),
  } as const;
}
