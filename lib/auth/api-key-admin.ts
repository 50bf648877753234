// Console management of API keys: the form's schemas, the listing (prefix, scopes, last use)
// and the view. Creating and revoking a key are operations (./operations).
import { z } from "zod";
import type { Db } from "../db/prisma";
import { API_SCOPES } from "./actor";

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

export function apiKeyView(k: Row): ApiKeyView {
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

export const apiKeyColumns = {
  id: true, name: true, prefix: true, scopes: true, createdAt: true, lastUsedAt: true, revokedAt: true,
  createdBy: { select: { email: true } },
} as const;

/** Active keys first, newest first. The hash never leaves the database layer. */
export async function listApiKeys(database: Db): Promise<ApiKeyView[]> {
  const rows = await database.apiKey.findMany({ select: apiKeyColumns, orderBy: [{ revokedAt: { sort: "desc", nulls: "first" } }, { createdAt: "desc" }] });
  return rows.map(apiKeyView);
}
