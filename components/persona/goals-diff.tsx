// Before/after goals side by side, with removed and added lines marked (line diff).
import { diffLines } from "@/lib/persona/diff";

export function GoalsDiff({ before, after, afterLabel }: { before: string; after: string; afterLabel: "After" | "Proposed" | "Approved" | "Dismissed" }) {
  const lines = diffLines(before, after);
  const side = (keep: "removed" | "added") => {
    const shown = lines.filter((l) => l.kind === "same" || l.kind === keep);
    if (shown.length === 0) return <p className="text-slate-500 italic dark:text-slate-400">No goals</p>;
    return shown.map((l, i) => (
      <p
        key={i}
        className={`break-words whitespace-pre-wrap ${
          l.kind === "removed"
            ? "bg-red-50 text-red-900 line-through decoration-red-400 dark:bg-red-950/60 dark:text-red-200"
            : l.kind === "added"
              ? "bg-emerald-50 text-emerald-900 dark:bg-emerald-950/60 dark:text-emerald-200"
              : ""
        }`}
      >
        {l.kind === "removed" ? <span className="sr-only">Removed: </span> : l.kind === "added" ? <span className="sr-only">Added: </span> : null}
        {l.text || "\u00a0"}
      </p>
    ));
  };
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <div className="min-w-0 rounded-md border border-slate-200 p-3 text-sm dark:border-slate-800">
        <h4 className="mb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">Before</h4>
        {side("removed")}
      </div>
      <div className="min-w-0 rounded-md border border-slate-200 p-3 text-sm dark:border-slate-800">
        <h4 className="mb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">{afterLabel}</h4>
        {side("added")}
      </div>
    </div>
  );
}
