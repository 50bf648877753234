"use client";
// A timestamp in the reader's local time, with the exact ISO value on hover. The server
// renders UTC (it does not know the reader's zone); the browser swaps in local time.
import { useEffect, useState } from "react";

function parse(iso: string | Date | null | undefined): Date | null {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
}

export function LocalTime({ iso, fallback = "—" }: { iso: string | Date | null | undefined; fallback?: string }) {
  const value = parse(iso);
  const exact = value?.toISOString();
  const [local, setLocal] = useState<string | null>(null);
  useEffect(() => {
    setLocal(exact ? new Date(exact).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }) : null);
  }, [exact]);
  if (!exact) return <span>{fallback}</span>;
  return (
    <time dateTime={exact} title={exact} className="whitespace-nowrap">
      {local ?? `${exact.replace("T", " ").slice(0, 16)} UTC`}
    </time>
  );
}
