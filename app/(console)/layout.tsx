// Every console page renders inside this frame. It checks the session on the server (the
// pages check their own scope again) and loads the agent list for the switcher.
import { ConsoleShell } from "@/components/shell/console-shell";
import { ACCESS, readOnlyMode } from "@/lib/auth/access";
import { requireScope } from "@/lib/auth/page-access";
import { agentOptions } from "@/lib/console/agents";
import { db } from "@/lib/db/client";

export const dynamic = "force-dynamic";

export default async function ConsoleLayout({ children }: { children: React.ReactNode }) {
  const user = await requireScope("/agents", "learning:read");
  const agents = await agentOptions(db());
  return (
    <ConsoleShell user={{ email: user.label, role: user.role, scopes: ACCESS[user.role] }} agents={agents} readOnly={readOnlyMode()}>
      {children}
    </ConsoleShell>
  );
}
