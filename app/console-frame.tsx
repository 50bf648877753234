// The console frame for a signed-in user: the shell with the agent switcher's options and the
// sidebar's inbox counts for the page's agent (lib/console/pages/frame.ts). Used by the console
// layout and by the root 404, so an unknown address still shows the console.
import { headers } from "next/headers";
import { ConsoleShell } from "@/components/shell/console-shell";
import { ACCESS, can, readOnlyMode } from "@/lib/auth/access";
import type { ConsoleUser } from "@/lib/auth/page-access";
import { CONSOLE_URL_HEADER } from "@/lib/console/agent-scope";
import { loadConsoleFrame } from "@/lib/console/pages/frame";
import { readDb } from "@/lib/db/client";

export async function ConsoleFrame({ user, children }: { user: ConsoleUser; children: React.ReactNode }) {
  const { agents, inbox, scope } = await loadConsoleFrame(await readDb(), (s) => can(user, s), (await headers()).get(CONSOLE_URL_HEADER));
  return (
    <ConsoleShell user={{ email: user.label, role: user.role, scopes: ACCESS[user.role] }} agents={agents} inbox={inbox} scope={scope} readOnly={readOnlyMode()}>
      {children}
    </ConsoleShell>
  );
}
