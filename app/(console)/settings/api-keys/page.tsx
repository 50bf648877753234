// Settings → API keys: what agents authenticate with. Secrets are shown once, at creation.
import { PageHeader } from "@/components/ui/page-header";
import { ApiKeysPanel } from "@/components/settings/api-keys-panel";
import { requireScope } from "@/lib/auth/page-access";

export const dynamic = "force-dynamic";

export default async function ApiKeysPage() {
  await requireScope("/settings/api-keys", "apiKeys:read");
  return (
    <>
      <PageHeader
        title="API keys"
        description="Agents send runs with an ingest key; admin keys may also register agents and run promotions. A key's secret is shown once, when it is created."
      />
      <ApiKeysPanel />
    </>
  );
}
