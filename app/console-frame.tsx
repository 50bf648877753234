// The console frame for a signed-in user: the shell with the agent switcher's options and the
// sidebar's inbox counts (all agents: a layout does not see the page's query string). Used by
// the console layout and by the root 404, so an unknown address still shows the console.
import { ConsoleShell } from "@/components/shell/console-shell";
import { ACCESS, can, readOnlyMode } from "@/lib/auth/access";
import type { ConsoleUser } from "@/lib/auth/page-access";
import { agentOptions } from "@/lib/console/agents";
import { inboxCounts } from "@/lib/console/inbox";
import { readDb } from "@/lib/db/client";

export async function ConsoleFrame({ user, children }: { user: ConsoleUser; children: React.ReactNode }) {
  const [agents, inbox] = await Promise.all([agentOptions(readDb()), inboxCounts(readDb(), (scope) => can(user, scope))]);
  return (
    <ConsoleShell user={{ email: user.label, role: user.role, scopes: ACCESS[user.role] }} agents={agents} inbox={inbox} readOnly={readOnlyMode()}>
      {children}
    </ConsoleShell>
  );
}
