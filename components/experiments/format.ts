// How the report shows a figure: rates as percentages, tokens and calls with one decimal (they
// are means), latencies in ms; deltas signed. Browser-safe.
import type { METRICS } from "@/lib/experiments/scoring";

type Unit = (typeof METRICS)[number]["unit"];

export function figure(v: number | null | undefined, unit: Unit): string {
  if (v === null || v === undefined) return "—";
  if (unit === "rate") return `${(v * 100).toFixed(1)}%`;
  if (unit === "ms") return `${v.toFixed(0)} ms`;
  return v.toFixed(1);
}

export function signed(v: number | null | undefined, unit: Unit): string {
  if (v === null || v === undefined) return "—";
  const s = unit === "rate" ? `${(v * 100).toFixed(1)} pp` : unit === "ms" ? `${v.toFixed(0)} ms` : v.toFixed(1);
  return v > 0 ? `+${s}` : s;
}
