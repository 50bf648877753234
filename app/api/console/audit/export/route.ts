// Console: the audit log as a CSV or JSON-lines download (admins), streamed in batches.
import { route } from "@/lib/api/handler";
import { streamedResponse } from "@/lib/api/stream";
import { db } from "@/lib/db/client";
import { auditExportMediaType, auditExportSchema, exportAudit } from "@/lib/audit/export";

export const dynamic = "force-dynamic";

export const GET = route({ auth: "session", access: "audit:read", query: auditExportSchema }, async ({ query }) =>
  streamedResponse(exportAudit(db(), query), auditExportMediaType(query.format), `audit.${query.format}`),
);
