// Tabs of the Workflows section: trajectory classes (review) and the raw runs list. The
// agent filter travels with them.
import Link from "@/components/ui/link";

const TABS = [
  { id: "classes", href: "/workflows", label: "Trajectory classes" },
  { id: "runs", href: "/workflows/runs", label: "Runs" },
] as const;

export function WorkflowTabs({ current, agent }: { current: (typeof TABS)[number]["id"]; agent?: string }) {
  return (
    <nav aria-label="Workflows" className="mb-6 flex gap-1 border-b border-slate-200 dark:border-slate-800">
      {TABS.map((t) => (
        <Link
          key={t.id}
          href={agent ? `${t.href}?agent=${encodeURIComponent(agent)}` : t.href}
          aria-current={t.id === current ? "page" : undefined}
          className={`-mb-px rounded-t border-b-2 px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-500 ${
            t.id === current ? "border-indigo-600 text-indigo-700 dark:text-indigo-300" : "border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white"
          }`}
        >
          {t.label}
        </Link>
      ))}
    </nav>
  );
}
