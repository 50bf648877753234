// Console: list API keys and create one (the secret is in this response only).
import { route, json } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { createApiKeyAudited, createApiKeySchema, listApiKeys } from "@/lib/auth/api-key-admin";

export const dynamic = "force-dynamic";

export const GET = route({ auth: "session", role: "ADMIN" }, async () => ({ api_keys: await listApiKeys(db()) }));

export const POST = route({ auth: "session", role: "ADMIN", body: createApiKeySchema }, async ({ body, audit, actor }) => {
  const { key, secret } = await createApiKeyAudited(db(), audit, body, actor?.type === "user" ? actor.id : null);
  return json({ api_key: key, secret }, 201);
});
