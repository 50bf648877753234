// Settings → API keys: what agents authenticate with. Secrets are shown once, at creation.
import { PageHeader } from "@/components/ui/page-header";
import { ApiKeysPanel } from "@/components/settings/api-keys-panel";
import { requireScope } from "@/lib/auth/page-access";
import { loadApiKeysPage } from "@/lib/auth/pages/api-keys";
import { readDb } from "@/lib/db/client";

export const dynamic = "force-dynamic";

export default async function ApiKeysPage() {
  await requireScope("/settings/api-keys", "apiKeys:read");
  const { agents } = await loadApiKeysPage(await readDb());
  return (
    <>
      <PageHeader
        title="API keys"
        description="Agents send runs with an ingest key; admin keys may also register agents and run promotions. Ledger procedures are proposed with a ledger:propose key and graded with a separate ledger:evaluate key. A key can be bound to a ledger tenant and to agents, and can expire. A secret is shown once, when the key is created or rotated."
      />
      <ApiKeysPanel agents={agents} />
    </>
  );
}
