"use client";
// The filter box of a review list: submitting writes `q` to the URL (page and selection
// reset), so a filtered view can be shared and reloaded. "/" focuses it (use-list-keys).
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { Button } from "../ui/button";

export function SearchBox({ id, label, placeholder, resetKeys }: { id: string; label: string; placeholder: string; resetKeys: string[] }) {
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  const [value, setValue] = useState(search.get("q") ?? "");
  function apply(v: string) {
    const q = new URLSearchParams(search.toString());
    for (const k of ["page", ...resetKeys]) q.delete(k);
    if (v.trim()) q.set("q", v.trim());
    else q.delete("q");
    const s = q.toString();
    router.push(s ? `${pathname}?${s}` : pathname);
  }
  return (
    <form
      role="search"
      className="flex min-w-0 flex-1 gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        apply(value);
      }}
    >
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        type="search"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape") (e.target as HTMLInputElement).blur();
        }}
        placeholder={placeholder}
        maxLength={200}
        className="block w-full min-w-0 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-700 dark:bg-slate-950"
      />
      <Button type="submit" variant="secondary">
        Filter
      </Button>
    </form>
  );
}

export function KeyHints({ copyWhat }: { copyWhat: string }) {
  const k = "rounded border border-slate-300 px-1 font-mono text-[11px] dark:border-slate-700";
  return (
    <p className="hidden text-xs text-slate-500 md:block dark:text-slate-400">
      <kbd className={k}>j</kbd>/<kbd className={k}>k</kbd> move · <kbd className={k}>c</kbd> copies {copyWhat} · <kbd className={k}>/</kbd> filter
    </p>
  );
}
