// Segmented filters (with counts where known); each is a link that keeps the other URL state.
import Link from "@/components/ui/link";
import type { Chip } from "@/lib/console/url";
import { formatNumber } from "@/lib/text/format";

export type { Chip };

export function StatusChips({ chips, current, label }: { chips: Chip[]; current: string | null; label: string }) {
  return (
    <nav aria-label={label} className="flex flex-wrap gap-1.5">
      {chips.map((c) => {
        const active = c.value === current;
        return (
          <Link
            key={c.value ?? "all"}
            href={c.href}
            aria-current={active ? "true" : undefined}
            className={`inline-flex items-center gap-1.5 rounded-full border px-3 py-1 text-xs font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 ${
              active
                ? "border-indigo-600 bg-indigo-600 text-white"
                : "border-slate-300 text-slate-700 hover:bg-slate-100 dark:border-slate-700 dark:text-slate-300 dark:hover:bg-slate-800"
            }`}
          >
            {c.label}
            {c.count !== undefined ? <span className={`tabular-nums ${active ? "text-indigo-100" : "text-slate-500 dark:text-slate-400"}`}>{formatNumber(c.count)}</span> : null}
          </Link>
        );
      })}
    </nav>
  );
}
