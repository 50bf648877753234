"use server";
// Settings → API keys: create (the secret is in this answer only) and revoke with a reason.
import { action } from "./action";
import { consoleId } from "./ids";
import { db } from "../db/client";
import { createApiKeySchema, revokeApiKeySchema } from "../auth/api-key-admin";
import { createApiKey as create, revokeApiKey as revoke } from "../auth/operations";

export const createApiKey = action("apiKeys:manage", createApiKeySchema, async (input, { audit }) => {
  const { key, secret } = await create(db(), input, audit);
  return { api_key: key, secret };
});

export const revokeApiKey = action("apiKeys:manage", revokeApiKeySchema.extend({ id: consoleId }), async ({ id, reason }, { audit }) => ({
  api_key: await revoke(db(), { apiKeyId: id, reason }, audit),
}));
