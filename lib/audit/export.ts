// The audit log as a download (admins, from the audit page): CSV or JSON lines, with the page's
// filters, read in keyset-paged batches on (at, id) so memory stays one batch. Audit rows hold
// no private text (./events.ts), so the export holds none either. CSV through the one writer
// (../text/csv.ts: quoting and formula escaping).
import { z } from "zod";
import { csvRows } from "../text/csv";
import type { Db } from "../db/prisma";
import type { AuditEvent as AuditEventRow, Prisma } from "../db/generated/client";
import { auditQuerySchema, auditRowView, auditWhere } from "./query";

export const auditExportSchema = auditQuerySchema.omit({ page: true, page_size: true }).extend({ format: z.enum(["csv", "jsonl"]).default("csv") });
export type AuditExport = z.output<typeof auditExportSchema>;

const COLUMNS = ["id", "at", "actor_type", "actor_id", "actor_label", "actor_role", "action", "target_type", "target_id", "request_id", "client_hash", "details"] as const;

export const AUDIT_EXPORT_BATCH = 1000;

export const auditExportMediaType = (format: AuditExport["format"]) => (format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson");

export async function* exportAudit(db: Db, q: AuditExport, batch = AUDIT_EXPORT_BATCH): AsyncIterable<string> {
  const where = await auditWhere(db, q);
  const past = q.dir === "asc" ? "gt" : "lt";
  let after: { at: Date; id: bigint } | null = null;
  if (q.format === "csv") yield csvRows([COLUMNS]);
  for (;;) {
    const keyset: Prisma.AuditEventWhereInput | null = after && { OR: [{ at: { [past]: after.at } }, { at: after.at, id: { [past]: after.id } }] };
    const rows: AuditEventRow[] = await db.auditEvent.findMany({ where: keyset ? { AND: [where, keyset] } : where, orderBy: [{ at: q.dir }, { id: q.dir }], take: batch });
    if (rows.length > 0) {
      const views = rows.map(auditRowView);
      yield q.format === "csv"
        ? csvRows(views.map((v) => COLUMNS.map((c) => (c === "details" ? JSON.stringify(v.details) : (v[c] ?? "")))))
        : views.map((v) => JSON.stringify(v) + "\n").join("");
    }
    if (rows.length < batch) return;
    const last = rows[rows.length - 1];
    after = { at: last.at, id: last.id };
  }
}
