// The seed's three assertions, each pass / fail / pending with the evidence it rests on.
import type { SeedCheck } from "@/lib/experiments/checks";
import { Badge } from "../ui/badge";

export function ChecksList({ checks }: { checks: SeedCheck[] }) {
  return (
    <ul className="space-y-2">
      {checks.map((c) => (
        <li key={c.key} data-check={c.key} className="flex items-start gap-3 text-sm">
          <Badge status={c.status} />
          <div>
            <p className="font-medium">{c.label}</p>
            <p className="break-all text-slate-600 dark:text-slate-400">{c.evidence}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}
