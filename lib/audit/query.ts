// Reading the audit log: server-side pages, newest first by default, filtered by actor,
// action, target and time. One schema serves the console route and the page. Each row is
// parsed with the event union; a row that matches no current type keeps its raw details.
import { z } from "zod";
import type { Db } from "../db/prisma";
import type { AuditEvent as AuditEventRow, Prisma } from "../db/generated/client";
import { accountPseudonym } from "../persona/audit";
import { parseAuditEvent, type AuditEvent } from "./events";

const isoTime = z.iso.datetime({ offset: true, error: "must be an ISO-8601 time" });
const text = (max: number) => z.string().trim().max(max).optional().transform((v) => v || undefined);

export const auditQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(50),
  dir: z.enum(["asc", "desc"]).default("desc"),
  /** Matches the actor's label (email or key name) in part, or its id exactly. */
  actor: text(200),
  /** An event type ("api_key.created") or a prefix of one ("api_key."). */
  action: text(100),
  target_type: text(50),
  /** A target id or pseudonym, exactly. */
  target: text(200),
  /** A plain account id: matched through its pseudonym, computed here (rows never hold the plain id). */
  account: text(256),
  /** Persona page views: "hide" leaves them out (the page's default), "show" (the route's default) keeps them. */
  views: z.enum(["show", "hide"]).optional(),
  from: isoTime.optional(),
  to: isoTime.optional(),
});

export type AuditQuery = z.output<typeof auditQuerySchema>;

export type AuditEventView = {
  id: string;
  at: string;
  actor_type: string;
  actor_id: string | null;
  actor_label: string | null;
  actor_role: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  request_id: string | null;
  client_hash: string | null;
  details: unknown;
  /** The typed event, or null for a legacy row that no current type describes. */
  event: AuditEvent | null;
};

/** The event a persona page view writes: one per look, so the page hides them unless asked. */
export const VIEW_EVENT = "persona_profile.viewed";

/** The rows a query's filters select (its paging aside): the page and the export share it. */
export async function auditWhere(database: Db, q: Omit<AuditQuery, "page" | "page_size" | "dir">): Promise<Prisma.AuditEventWhereInput> {
  const account = q.account ? await accountPseudonym(database, q.account) : null;
  // Asking for the view events by name shows them.
  const hideViews = q.views === "hide" && q.action !== VIEW_EVENT;
  return {
    AND: [
      ...(account ? [{ targetType: "account", targetId: account }] : []),
      ...(hideViews ? [{ action: { not: VIEW_EVENT } }] : []),
    ],
    ...(q.actor ? { OR: [{ actorLabel: { contains: q.actor, mode: "insensitive" } }, { actorId: q.actor }] } : {}),
    ...(q.action ? { action: { startsWith: q.action } } : {}),
    ...(q.target_type ? { targetType: q.target_type } : {}),
    ...(q.target ? { targetId: q.target } : {}),
    ...(q.from || q.to ? { at: { ...(q.from ? { gte: new Date(q.from) } : {}), ...(q.to ? { lte: new Date(q.to) } : {}) } } : {}),
  };
}

export async function queryAudit(database: Db, q: AuditQuery): Promise<{ events: AuditEventView[]; total: number; page: number; page_size: number }> {
  const where = await auditWhere(database, q);
  const [rows, total] = await Promise.all([
    database.auditEvent.findMany({
      where,
      orderBy: [{ at: q.dir }, { id: q.dir }],
      skip: (q.page - 1) * q.page_size,
      take: q.page_size,
    }),
    database.auditEvent.count({ where }),
  ]);
  return {
    events: rows.map((r) => ({ ...auditRowView(r), event: parseAuditEvent(r) })),
    total,
    page: q.page,
    page_size: q.page_size,
  };
}

/** A stored row as the console's routes show it (the typed event aside). */
export function auditRowView(r: AuditEventRow): Omit<AuditEventView, "event"> {
  return {
    id: r.id.toString(),
    at: r.at.toISOString(),
    actor_type: r.actorType,
    actor_id: r.actorId,
    actor_label: r.actorLabel,
    actor_role: r.actorRole,
    action: r.action,
    target_type: r.targetType,
    target_id: r.targetId,
    request_id: r.requestId,
    client_hash: r.clientHash,
    details: r.details,
  };
}
