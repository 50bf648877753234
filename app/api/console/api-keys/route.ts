// Console: list API keys and create one (the secret is in this response only).
import { route, json } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { createApiKeySchema, listApiKeys } from "@/lib/auth/api-key-admin";
import { createApiKey } from "@/lib/auth/operations";

export const dynamic = "force-dynamic";

export const GET = route({ auth: "session", role: "ADMIN" }, async () => ({ api_keys: await listApiKeys(db()) }));

export const POST = route({ auth: "session", role: "ADMIN", body: createApiKeySchema }, async ({ body, audit }) => {
  const { key, secret } = await createApiKey(db(), body, audit);
  return json({ api_key: key, secret }, 201);
});
