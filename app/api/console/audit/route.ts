// Console: the audit log, a page at a time.
import { route } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { auditQuerySchema, queryAudit } from "@/lib/audit/query";

export const dynamic = "force-dynamic";

export const GET = route({ auth: "session", access: "audit:read", query: auditQuerySchema }, async ({ query }) => queryAudit(db(), query));
