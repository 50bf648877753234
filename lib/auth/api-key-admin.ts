// Console management of API keys: the form's schemas, the listing (prefix, scopes, bindings,
// expiry, rotation, last use) and the view. Creating, rotating and revoking a key are
// operations (./operations).
import { z } from "zod";
import type { Db } from "../db/prisma";
import { pathId } from "../path-id";
import { ledgerIdSchema } from "../ledger/schemas";
import { API_SCOPES } from "./actor";
import { keyScopeProblem } from "./api-keys";
import { userReasonSchema } from "./users";

/** Blank form fields mean "not bound". */
const optionalText = <S extends z.ZodType>(schema: S) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? null : typeof v === "string" ? v.trim() : v), schema.nullable().optional());

export const createApiKeySchema = z
  .object({
    name: z.string().trim().min(1, { error: "a name is required" }).max(100),
    scopes: z.array(z.enum(API_SCOPES)).min(1, { error: "choose at least one scope" }),
    /** The one ledger tenant the key reaches; absent: any. */
    tenant: optionalText(ledgerIdSchema),
    /** The agents the key reaches; empty: every agent. */
    agents: z.array(pathId).max(100, { error: "bind at most 100 agents" }).default([]),
    /** Required for, and only for, ledger:evaluate keys. */
    evaluator_id: optionalText(ledgerIdSchema),
    /** ISO 8601 with a zone; absent: the key does not expire. */
    expires_at: optionalText(
      z.iso
        .datetime({ offset: true, error: "expires_at must be an ISO 8601 date-time with a zone" })
        .transform((s) => new Date(s))
        .refine((d) => d.getTime() > Date.now(), { error: "expires_at must be in the future" }),
    ),
  })
  .strict()
  .superRefine((v, ctx) => {
    const problem = keyScopeProblem(v.scopes, v.evaluator_id);
    if (problem) ctx.addIssue({ code: "custom", path: [v.scopes.includes("ledger:evaluate") && !v.evaluator_id ? "evaluator_id" : "scopes"], message: problem });
  });

/** Revoking and rotating a key take only the admin's reason, as user changes do. */
export const revokeApiKeySchema = userReasonSchema;
export const rotateApiKeySchema = userReasonSchema;

export type ApiKeyView = {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  tenant: string | null;
  agents: string[];
  evaluator_id: string | null;
  created_by: string | null;
  created_at: string;
  expires_at: string | null;
  rotated_at: string | null;
  /** Until when the secret before the last rotation still works (null when it no longer does or never existed). */
  previous_valid_until: string | null;
  last_used_at: string | null;
  last_used_address: string | null;
  revoked_at: string | null;
  status: "active" | "expired" | "revoked";
};

type Row = {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  tenant: string | null;
  agents: string[];
  evaluatorId: string | null;
  createdAt: Date;
  expiresAt: Date | null;
  rotatedAt: Date | null;
  previousValidUntil: Date | null;
  lastUsedAt: Date | null;
  lastUsedAddress: string | null;
  revokedAt: Date | null;
  createdBy: { email: string } | null;
};

export function apiKeyView(k: Row, now = new Date()): ApiKeyView {
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  return {
    id: k.id,
    name: k.name,
    prefix: `pk_${k.prefix}`,
    scopes: k.scopes,
    tenant: k.tenant,
    agents: k.agents,
    evaluator_id: k.evaluatorId,
    created_by: k.createdBy?.email ?? null,
    created_at: k.createdAt.toISOString(),
    expires_at: iso(k.expiresAt),
    rotated_at: iso(k.rotatedAt),
    previous_valid_until: k.previousValidUntil && k.previousValidUntil > now && !k.revokedAt ? k.previousValidUntil.toISOString() : null,
    last_used_at: iso(k.lastUsedAt),
    last_used_address: k.lastUsedAddress,
    revoked_at: iso(k.revokedAt),
    status: k.revokedAt ? "revoked" : k.expiresAt && k.expiresAt <= now ? "expired" : "active",
  };
}

export const apiKeyColumns = {
  id: true, name: true, prefix: true, scopes: true, tenant: true, agents: true, evaluatorId: true, createdAt: true, expiresAt: true,
  rotatedAt: true, previousValidUntil: true, lastUsedAt: true, lastUsedAddress: true, revokedAt: true,
  createdBy: { select: { email: true } },
} as const;

/** Active keys first, newest first. Hashes never leave the database layer. */
export async function listApiKeys(database: Db): Promise<ApiKeyView[]> {
  const rows = await database.apiKey.findMany({ select: apiKeyColumns, orderBy: [{ revokedAt: { sort: "desc", nulls: "first" } }, { createdAt: "desc" }] });
  return rows.map((r) => apiKeyView(r));
}
