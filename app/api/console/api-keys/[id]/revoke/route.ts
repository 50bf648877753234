// Console: revoke an API key, with the admin's reason in the audit row.
import { z } from "zod";
import { route } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { revokeApiKeySchema } from "@/lib/auth/api-key-admin";
import { revokeApiKey } from "@/lib/auth/operations";

export const dynamic = "force-dynamic";

const params = z.object({ id: z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/) });

export const POST = route({ auth: "session", role: "ADMIN", params, body: revokeApiKeySchema }, async ({ params, body, audit }) => ({
  api_key: await revokeApiKey(db(), { apiKeyId: params.id, ...body }, audit),
}));
