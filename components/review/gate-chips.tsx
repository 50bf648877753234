// One chip per promotion gate, pass or fail, with the engine's detail on hover and for
// screen readers.
import type { Gate } from "@/lib/learning/classes/class-gates";
import { GATE_LABEL, GATE_SHORT } from "@/lib/learning/review/status";

export function GateChips({ gates }: { gates: Gate[] }) {
  return (
    <ul className="flex flex-wrap gap-1" aria-label="Gates">
      {gates.map((g) => (
        <li
          key={g.name}
          title={`${GATE_LABEL[g.name]}: ${g.detail}`}
          aria-label={`${GATE_LABEL[g.name]} ${g.passed ? "passed" : "failed"}: ${g.detail}`}
          data-gate={g.name}
          data-passed={g.passed}
          className={`inline-flex items-center gap-0.5 rounded px-1.5 py-0.5 font-mono text-[11px] leading-none ring-1 ring-inset ${
            g.passed
              ? "bg-emerald-50 text-emerald-800 ring-emerald-200 dark:bg-emerald-950 dark:text-emerald-300 dark:ring-emerald-900"
              : "bg-red-50 text-red-800 ring-red-200 dark:bg-red-950 dark:text-red-300 dark:ring-red-900"
          }`}
        >
          <span aria-hidden>{g.passed ? "✓" : "✗"}</span>
          <span aria-hidden>{GATE_SHORT[g.name]}</span>
        </li>
      ))}
    </ul>
  );
}
