// Console: the API keys list the settings page reads (and re-reads after each change).
// Creation and revocation are server actions (lib/actions/api-keys.ts).
import { route } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { listApiKeys } from "@/lib/auth/api-key-admin";

export const dynamic = "force-dynamic";

export const GET = route({ auth: "session", access: "apiKeys:read" }, async () => ({ api_keys: await listApiKeys(db()) }));
