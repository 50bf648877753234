// Settings → Webhooks: signed notifications of lifecycle events to the admin's endpoints.
import { PageHeader } from "@/components/ui/page-header";
import { WebhooksPanel } from "@/components/settings/webhooks-panel";
import { can } from "@/lib/auth/access";
import { requireScope } from "@/lib/auth/page-access";
import { loadWebhooksPage } from "@/lib/webhooks/pages/webhooks";
import { readDb } from "@/lib/db/client";

export const dynamic = "force-dynamic";

export default async function WebhooksPage() {
  const actor = await requireScope("/settings/webhooks", "webhooks:read");
  const page = await loadWebhooksPage(await readDb());
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Proctor POSTs a JSON message to each endpoint for the events it chose, signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature: HMAC-SHA256 with the endpoint's whsec_ secret). Failed attempts are retried with exponential backoff (5 attempts by default). A secret is shown once, when the endpoint is added or its secret rotated."
      />
      <WebhooksPanel page={page} canManage={can(actor, "webhooks:manage")} />
    </>
  );
}
