// Create an API key for agents: its secret is returned once and never stored (only a hash)
// or audited. The key and its audit row commit together; its creator is the acting user.
// Its bindings (tenant, agents, evaluator) and expiry are fixed at creation.
import type { z } from "zod";
import type { Db } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { apiKeyColumns, apiKeyView, type createApiKeySchema } from "../api-key-admin";
// The row insert (also used by bootstrap and scripts/bench/ledger.ts, which keep its name).
import { createApiKey as insertApiKey } from "../api-keys";

export type CreateApiKeyInput = Omit<z.output<typeof createApiKeySchema>, "agents"> & { agents?: string[] };

export async function createApiKey(database: Db, input: CreateApiKeyInput, by: AuditContext) {
  const createdById = by.actor?.type === "user" ? by.actor.id : null;
  return database.$transaction(async (tx) => {
    const { row, secret } = await insertApiKey(tx, {
      name: input.name,
      scopes: input.scopes,
      createdById,
      tenant: input.tenant ?? null,
      agents: input.agents,
      evaluatorId: input.evaluator_id ?? null,
      expiresAt: input.expires_at ?? null,
    });
    await recordAudit(tx, by, {
      type: "api_key.created",
      target: { type: "api_key", id: row.id },
      data: {
        name: row.name,
        prefix: `pk_${row.prefix}`,
        scopes: row.scopes,
        tenant: row.tenant,
        agents: row.agents,
        evaluator_id: row.evaluatorId,
        expires_at: row.expiresAt?.toISOString() ?? null,
      },
    });
    const created = await tx.apiKey.findUniqueOrThrow({ where: { id: row.id }, select: apiKeyColumns });
    return { key: apiKeyView(created), secret };
  });
}
