"use server";
// Settings → API keys: create and rotate (the secret is in that answer only), revoke with a reason.
import { action } from "./action";
import { pathId } from "../path-id";
import { db } from "../db/client";
import { createApiKeySchema, revokeApiKeySchema, rotateApiKeySchema } from "../auth/api-key-admin";
import { createApiKey as create, revokeApiKey as revoke, rotateApiKey as rotate } from "../auth/operations";

export const createApiKey = action("apiKeys:manage", createApiKeySchema, async (input, { audit }) => {
  const { key, secret } = await create(db(), input, audit);
  return { api_key: key, secret };
});

export const revokeApiKey = action("apiKeys:manage", revokeApiKeySchema.extend({ id: pathId }), async ({ id, reason }, { audit }) => ({
  api_key: await revoke(db(), { apiKeyId: id, reason }, audit),
}));

export const rotateApiKey = action("apiKeys:manage", rotateApiKeySchema.extend({ id: pathId }), async ({ id, reason }, { audit }) => {
  const { key, secret } = await rotate(db(), { apiKeyId: id, reason }, audit);
  return { api_key: key, secret };
});
