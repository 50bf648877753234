"use client";
// Filters for a server-paginated table. Submitting writes them to the URL (page reset to 1),
// so a filtered view can be shared and reloaded. Date-time fields are entered in local time
// and sent as ISO-8601.
import { useRouter, usePathname, useSearchParams } from "next/navigation";
import { useState } from "react";
import { Button } from "./button";

export type FilterField =
  | { name: string; label: string; type: "text"; placeholder?: string }
  | { name: string; label: string; type: "select"; options: { value: string; label: string }[] }
  | { name: string; label: string; type: "datetime" };

const input =
  "mt-1 block w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-700 dark:bg-slate-950";

function isoToLocalInput(iso: string | null): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

export function FilterBar({ fields }: { fields: FilterField[] }) {
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(fields.map((f) => [f.name, f.type === "datetime" ? isoToLocalInput(search.get(f.name)) : (search.get(f.name) ?? "")])),
  );

  function apply(next: Record<string, string>) {
    const q = new URLSearchParams(search.toString());
    q.delete("page");
    for (const f of fields) {
      const v = next[f.name]?.trim() ?? "";
      if (!v) q.delete(f.name);
      else q.set(f.name, f.type === "datetime" ? new Date(v).toISOString() : v);
    }
    const s = q.toString();
    router.push(s ? `${pathname}?${s}` : pathname);
  }

  return (
    <form
      role="search"
      className="mb-4 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-[repeat(auto-fit,minmax(10rem,1fr))_auto] lg:items-end"
      onSubmit={(e) => {
        e.preventDefault();
        apply(values);
      }}
    >
      {fields.map((f) => (
        <label key={f.name} className="block text-xs font-medium text-slate-600 dark:text-slate-400">
          {f.label}
          {f.type === "select" ? (
            <select className={input} value={values[f.name]} onChange={(e) => setValues({ ...values, [f.name]: e.target.value })}>
              <option value="">Any</option>
              {f.options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          ) : (
            <input
              className={input}
              type={f.type === "datetime" ? "datetime-local" : "text"}
              placeholder={f.type === "text" ? f.placeholder : undefined}
              value={values[f.name]}
              onChange={(e) => setValues({ ...values, [f.name]: e.target.value })}
            />
          )}
        </label>
      ))}
      <div className="flex gap-2">
        <Button type="submit">Filter</Button>
        <Button
          variant="ghost"
          onClick={() => {
            const cleared = Object.fromEntries(fields.map((f) => [f.name, ""]));
            setValues(cleared);
            apply(cleared);
          }}
        >
          Clear
        </Button>
      </div>
    </form>
  );
}
