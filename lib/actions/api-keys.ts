"use server";
// Settings → API keys: create (the secret is in this answer only) and revoke with a reason.
import { action } from "./action";
import { db } from "../db/client";
import { createApiKeyAudited, createApiKeySchema, revokeApiKey as revoke, revokeApiKeySchema } from "../auth/api-key-admin";
import { consoleId } from "./ids";

export const createApiKey = action("apiKeys:manage", createApiKeySchema, async (input, { actor, audit }) => {
  const { key, secret } = await createApiKeyAudited(db(), audit, input, actor.id);
  return { api_key: key, secret };
});

export const revokeApiKey = action("apiKeys:manage", revokeApiKeySchema.extend({ id: consoleId }), async ({ id, reason }, { audit }) => ({
  api_key: await revoke(db(), audit, id, reason),
}));
