// The console's sections, in sidebar order. `adminOnly` hides a link from viewers; the
// pages enforce the same rule on the server (lib/auth/page-access.ts).
export type Section = { href: string; label: string; adminOnly?: boolean };

export const SECTIONS: Section[] = [
  { href: "/agents", label: "Agents" },
  { href: "/workflows", label: "Workflows" },
  { href: "/skills", label: "Skills" },
  { href: "/ledger", label: "Ledger", adminOnly: true },
  { href: "/persona-evolution", label: "Persona evolution", adminOnly: true },
  { href: "/traces", label: "Traces" },
  { href: "/audit", label: "Audit log", adminOnly: true },
  { href: "/settings", label: "Settings", adminOnly: true },
];
