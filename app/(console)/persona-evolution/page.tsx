// GET /persona-evolution?user_id=…: one account's persona, for admins only. Every view with an
// account id writes its audit row first (in the read's transaction); if it cannot, nothing is
// read and the page says so. Actions go through the console's server action (the same rules as
// POST /persona-evolution/action).
import { randomUUID } from "node:crypto";
import { headers } from "next/headers";
import { can, readOnlyMode } from "@/lib/auth/access";
import { requireScope } from "@/lib/auth/page-access";
import { clientHash } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { loadPersonaPage } from "@/lib/persona/pages/persona-evolution";
import { validAccountId } from "@/lib/persona/action-body";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { AccountLookup } from "@/components/persona/account-lookup";
import { PersonaMonitor } from "@/components/persona/persona-monitor";
import { ForgetAccountButton } from "@/components/accounts/forget-account-button";

export const dynamic = "force-dynamic";

type Search = Promise<{ user_id?: string | string[] }>;

export default async function PersonaEvolutionPage({ searchParams }: { searchParams: Search }) {
  const raw = (await searchParams).user_id;
  const userId = typeof raw === "string" ? raw : "";
  const user = await requireScope(`/persona-evolution${userId ? `?user_id=${encodeURIComponent(userId)}` : ""}`, "persona:read");
  const { state, decisions, error } = await loadPersonaPage(db(), userId, async () => {
    const requestHeaders = await headers();
    return {
      actor: user,
      requestId: requestHeaders.get("x-request-id") ?? randomUUID(),
      clientHash: await clientHash(new Request("http://console.local/", { headers: requestHeaders })),
    };
  });
  return (
    <div className="min-w-0">
      <PageHeader
        title="Persona evolution"
        description="What changed in an account's learning goals, why, and the conversations behind it. Each account has its own persona; nothing changes without approval."
      />
      <div className="mb-6 flex flex-wrap items-end justify-between gap-3">
        <AccountLookup userId={userId} />
        {userId && validAccountId(userId) !== null && can(user, "accounts:forget") ? <ForgetAccountButton userId={userId} /> : null}
      </div>
      {error ? (
        <p role="alert" className="mb-6 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
          {error}
        </p>
      ) : null}
      {state && decisions ? (
        <PersonaMonitor key={state.user_id} state={state} decisions={decisions} writable={can(user, "persona:decide")} readOnly={readOnlyMode()} />
      ) : !error ? (
        <EmptyState title="Start with an account">
          {userId
            ? "No conversations have arrived for this account ID yet. A persona starts from an account's conversations."
            : "Pick an account on the Accounts page, or type its ID above, to see its approved approach, pending reflection and change history."}
        </EmptyState>
      ) : null}
    </div>
  );
}
