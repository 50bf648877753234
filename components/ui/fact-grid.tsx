// Label-over-value figures in a grid (stats of a class, a skill, a queue). Server-safe.
import type { ReactNode } from "react";

export type Fact = readonly [label: string, value: ReactNode];

export function FactGrid({ facts, className = "grid-cols-2", valueClassName = "" }: { facts: readonly Fact[]; className?: string; valueClassName?: string }) {
  return (
    <dl className={`grid gap-x-4 gap-y-2 text-sm ${className}`}>
      {facts.map(([k, v]) => (
        <div key={k} className="min-w-0">
          <dt className="text-xs text-slate-500 dark:text-slate-400">{k}</dt>
          <dd className={`tabular-nums ${valueClassName}`}>{v}</dd>
        </div>
      ))}
    </dl>
  );
}
