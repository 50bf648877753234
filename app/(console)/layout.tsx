// Every console page renders inside this frame. It checks the session on the server (the
// pages check their own role again) and loads the agent list for the switcher.
import { ConsoleShell } from "@/components/shell/console-shell";
import { requireUser } from "@/lib/auth/page-access";
import { agentOptions } from "@/lib/console/agents";
import { db } from "@/lib/db/client";

export const dynamic = "force-dynamic";

export default async function ConsoleLayout({ children }: { children: React.ReactNode }) {
  const user = await requireUser("/agents");
  const agents = await agentOptions(db());
  return (
    <ConsoleShell user={{ email: user.label, role: user.role }} agents={agents} readOnly={process.env.PROCTOR_READ_ONLY === "1"}>
      {children}
    </ConsoleShell>
  );
}
