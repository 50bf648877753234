"use client";
import Link from "@/components/ui/link";
import { usePathname } from "next/navigation";

const TABS = [
  { href: "/settings/api-keys", label: "API keys" },
  { href: "/settings/users", label: "Users" },
  { href: "/settings/webhooks", label: "Webhooks" },
];

export function SettingsTabs() {
  const pathname = usePathname();
  return (
    <nav aria-label="Settings" className="mb-6 flex flex-wrap gap-1 border-b border-slate-200 dark:border-slate-800">
      {TABS.map((t) => {
        const current = pathname.startsWith(t.href);
        return (
          <Link
            key={t.href}
            href={t.href}
            aria-current={current ? "page" : undefined}
            className={`-mb-px rounded-t border-b-2 px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-500 ${
              current ? "border-indigo-600 text-indigo-700 dark:text-indigo-300" : "border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white"
            }`}
          >
            {t.label}
          </Link>
        );
      })}
    </nav>
  );
}
