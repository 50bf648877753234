// Console management of API keys: list (prefix, scopes, last use), create (secret returned
// once, never stored or audited), revoke. Each change commits with its audit row.
import { z } from "zod";
import type { Db } from "../db/prisma";
import { recordAudit, type AuditContext } from "../audit/record";
import { API_SCOPES } from "./actor";
import { createApiKey } from "./api-keys";
import { InvalidState, NotFound } from "../errors";

export const createApiKeySchema = z
  .object({
    name: z.string().trim().min(1, { error: "a name is required" }).max(100),
    scopes: z.array(z.enum(API_SCOPES as ["ingest", "admin"])).min(1, { error: "choose at least one scope" }),
  })
  .strict();

export const revokeApiKeySchema = z.object({ reason: z.string().trim().min(1, { error: "a reason is required" }).max(500) }).strict();

export type ApiKeyView = {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  created_by: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
};

type Row = {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  createdBy: { email: string } | null;
};

function view(k: Row): ApiKeyView {
  return {
    id: k.id,
    name: k.name,
    prefix: `pk_${k.prefix}`,
    scopes: k.scopes,
    created_by: k.createdBy?.email ?? null,
    created_at: k.createdAt.toISOString(),
    last_used_at: k.lastUsedAt?.toISOString() ?? null,
    revoked_at: k.revokedAt?.toISOString() ?? null,
  };
}

const columns = {
  id: true, name: true, prefix: true, scopes: true, createdAt: true, lastUsedAt: true, revokedAt: true,
  createdBy: { select: { email: true } },
} as const;

/** Active keys first, newest first. The hash never leaves the database layer. */
export async function listApiKeys(database: Db): Promise<ApiKeyView[]> {
  const rows = await database.apiKey.findMany({ select: columns, orderBy: [{ revokedAt: { sort: "desc", nulls: "first" } }, { createdAt: "desc" }] });
  return rows.map(view);
}

export async function createApiKeyAudited(database: Db, audit: AuditContext, input: z.output<typeof createApiKeySchema>, createdById: string | null) {
  return database.$transaction(async (tx) => {
    const { row, secret } = await createApiKey(tx, { name: input.name, scopes: input.scopes, createdById });
    await recordAudit(tx, audit, {
      type: "api_key.created",
      target: { type: "api_key", id: row.id },
      data: { name: row.name, prefix: `pk_${row.prefix}`, scopes: row.scopes },
    });
    const created = await tx.apiKey.findUniqueOrThrow({ where: { id: row.id }, select: columns });
    return { key: view(created), secret };
  });
}

export async function revokeApiKey(database: Db, audit: AuditContext, id: string, reason: string) {
  return database.$transaction(async (tx) => {
    // Conditional update: of two concurrent revocations exactly one changes the row.
    const { count } = await tx.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
    if (count === 0) {
      const exists = await tx.apiKey.findUnique({ where: { id }, select: { id: true } });
      throw exists ? new InvalidState("The API key is already revoked.") : new NotFound("The API key");
    }
    await recordAudit(tx, audit, { type: "api_key.revoked", target: { type: "api_key", id }, data: { reason } });
    return view(await tx.apiKey.findUniqueOrThrow({ where: { id }, select: columns }));
  });
}
