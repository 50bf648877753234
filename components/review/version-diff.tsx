"use client";
// Side-by-side diff of any two SKILL.md versions distilled from the same class.
import { useMemo, useState } from "react";
import { sideBySideDiff, type DiffCell } from "@/lib/learning/review/diff";
import { pluralise } from "@/lib/text/format";

export type VersionText = { id: string; version: number; status: string; content: string };

const select = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-700 dark:bg-slate-950";
const TONE = { same: "", changed: "bg-amber-50 dark:bg-amber-950/40", removed: "bg-red-50 dark:bg-red-950/40", added: "bg-emerald-50 dark:bg-emerald-950/40" };

function Cell({ cell, side, kind }: { cell: DiffCell; side: "left" | "right"; kind: keyof typeof TONE }) {
  const tone = kind === "same" ? "" : side === "left" ? (kind === "added" ? "" : kind === "changed" ? TONE.changed : TONE.removed) : kind === "removed" ? "" : kind === "changed" ? TONE.changed : TONE.added;
  return (
    <td className={`w-1/2 px-2 py-0.5 align-top font-mono text-xs break-all whitespace-pre-wrap ${tone}`}>
      {cell ? (
        <>
          <span aria-hidden className="mr-2 inline-block w-6 text-right text-slate-400 select-none">{cell.line}</span>
          {cell.text}
        </>
      ) : null}
    </td>
  );
}

export function VersionDiff({ versions, currentId }: { versions: VersionText[]; currentId: string }) {
  const current = versions.find((v) => v.id === currentId) ?? versions[0];
  const older = versions.find((v) => v.version < current.version) ?? versions.find((v) => v.id !== current.id) ?? current;
  const [left, setLeft] = useState(older.id);
  const [right, setRight] = useState(current.id);
  const a = versions.find((v) => v.id === left)!;
  const b = versions.find((v) => v.id === right)!;
  const rows = useMemo(() => sideBySideDiff(a.content, b.content), [a.content, b.content]);
  const changes = rows.filter((r) => r.kind !== "same").length;
  const label = (v: VersionText) => `v${v.version} (${v.status})`;
  return (
    <div className="space-y-2">
      <div className="grid grid-cols-2 gap-2">
        <label className="text-xs font-medium">
          From
          <select className={select} value={left} onChange={(e) => setLeft(e.target.value)}>
            {versions.map((v) => <option key={v.id} value={v.id}>{label(v)}</option>)}
          </select>
        </label>
        <label className="text-xs font-medium">
          To
          <select className={select} value={right} onChange={(e) => setRight(e.target.value)}>
            {versions.map((v) => <option key={v.id} value={v.id}>{label(v)}</option>)}
          </select>
        </label>
      </div>
      <p className="text-xs text-slate-500 dark:text-slate-400" role="status">
        {a.id === b.id ? "The same version on both sides." : changes ? `${pluralise(changes, "changed line")}.` : "No differences."}
      </p>
      <div className="max-h-96 overflow-auto rounded-md border border-slate-200 dark:border-slate-800">
        <table className="w-full table-fixed">
          <caption className="sr-only">{`SKILL.md ${label(a)} compared with ${label(b)}`}</caption>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i} data-diff={r.kind}>
                <Cell cell={r.left} side="left" kind={r.kind} />
                <Cell cell={r.right} side="right" kind={r.kind} />
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
