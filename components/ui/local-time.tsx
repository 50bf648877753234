"use client";
// A timestamp in the reader's local time, with the exact ISO value on hover. The server
// renders UTC (it does not know the reader's zone); the browser swaps in local time.
import { useSyncExternalStore } from "react";
import { formatDateTime } from "@/lib/text/format";

const subscribeToNothing = () => () => {};

function parse(iso: string | Date | null | undefined): Date | null {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
}

export function LocalTime({ iso, fallback = "—" }: { iso: string | Date | null | undefined; fallback?: string }) {
  const value = parse(iso);
  const exact = value?.toISOString();
  // UTC while the server renders and the browser hydrates (the two must agree), local time after,
  // in the same format.
  const inBrowser = useSyncExternalStore(subscribeToNothing, () => true, () => false);
  const local = inBrowser && exact ? formatDateTime(exact) : null;
  if (!exact) return <span>{fallback}</span>;
  return (
    <time dateTime={exact} title={exact} className="whitespace-nowrap">
      {local ?? formatDateTime(exact, "UTC")}
    </time>
  );
}
