// The console's sections, in sidebar order, each with the scope its page requires
// (lib/auth/access.ts): a link shows only to users with that scope, and the page checks the
// same scope again on the server (lib/auth/page-access.ts).
import type { Scope } from "@/lib/auth/access";

/** agentFilter: the page filters by `?agent=`, so the link keeps the agent chosen in the switcher. */
export type Section = { href: string; label: string; scope: Scope; agentFilter?: true };

export const SECTIONS: Section[] = [
  { href: "/", label: "Inbox", scope: "learning:read", agentFilter: true },
  { href: "/agents", label: "Agents", scope: "learning:read", agentFilter: true },
  { href: "/workflows", label: "Workflows", scope: "learning:read", agentFilter: true },
  { href: "/skills", label: "Skills", scope: "learning:read", agentFilter: true },
  { href: "/experiments", label: "Experiments", scope: "experiments:read", agentFilter: true },
  { href: "/ledger", label: "Ledger", scope: "ledger:read" },
  { href: "/accounts", label: "Accounts", scope: "persona:read", agentFilter: true },
  { href: "/persona-evolution", label: "Persona evolution", scope: "persona:read" },
  { href: "/traces", label: "Traces", scope: "learning:read", agentFilter: true },
  { href: "/audit", label: "Audit log", scope: "audit:read" },
  { href: "/settings", label: "Settings", scope: "apiKeys:read" },
];
