// Every console page renders inside this frame. It checks the session on the server (the
// pages check their own scope again).
import { requireScope } from "@/lib/auth/page-access";
import { ConsoleFrame } from "../console-frame";

export const dynamic = "force-dynamic";

export default async function ConsoleLayout({ children }: { children: React.ReactNode }) {
  const user = await requireScope("/", "learning:read");
  return <ConsoleFrame user={user}>{children}</ConsoleFrame>;
}
