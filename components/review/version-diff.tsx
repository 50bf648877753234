"use client";
// Side-by-side diff of any two SKILL.md versions distilled from the same class: removed lines
// red and marked "−", added green and "+", changed lines amber with the changed words
// highlighted (not colour alone: the markers and strike-through say it too). "Full width"
// opens the same diff across the screen, out of the detail panel's narrow column.
import { useMemo, useRef, useState } from "react";
import { sideBySideDiff, wordSegments, type DiffRow, type Segment } from "@/lib/learning/review/diff";
import { pluralise } from "@/lib/text/format";
import { Button } from "../ui/button";
import { useReturnFocus } from "../ui/return-focus";

export type VersionText = { id: string; version: number; status: string; content: string };

const select = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-700 dark:bg-slate-950";
const LINE = {
  removed: "bg-red-100 dark:bg-red-950/70",
  added: "bg-emerald-100 dark:bg-emerald-950/70",
  changed: "bg-amber-50 dark:bg-amber-950/50",
};
const WORD = { left: "rounded-sm bg-red-200 line-through decoration-red-700 dark:bg-red-900 dark:decoration-red-300", right: "rounded-sm bg-emerald-200 dark:bg-emerald-900" };

function Words({ segments, side }: { segments: Segment[]; side: "left" | "right" }) {
  return segments.map((s, i) => (s.changed ? <mark key={i} className={`${WORD[side]} text-inherit`}>{s.text}</mark> : <span key={i}>{s.text}</span>));
}

function Cell({ row, side }: { row: DiffRow; side: "left" | "right" }) {
  const cell = row[side];
  const kind = row.kind === "changed" ? "changed" : cell && row.kind === (side === "left" ? "removed" : "added") ? row.kind : null;
  const marker = kind === "removed" || (kind === "changed" && side === "left") ? "−" : kind ? "+" : "";
  const words = row.kind === "changed" && row.left && row.right ? wordSegments(row.left.text, row.right.text)[side] : null;
  return (
    <td className={`w-1/2 px-2 py-0.5 align-top font-mono text-xs break-words whitespace-pre-wrap ${kind ? LINE[kind] : ""}`}>
      {cell ? (
        <>
          <span aria-hidden className="mr-1 inline-block w-7 text-right text-slate-500 select-none dark:text-slate-400">{cell.line}</span>
          <span aria-hidden className="mr-1 inline-block w-3 font-semibold select-none">{marker}</span>
          {words ? <Words segments={words} side={side} /> : cell.text}
        </>
      ) : null}
    </td>
  );
}

function DiffTable({ rows, caption, tall }: { rows: DiffRow[]; caption: string; tall?: boolean }) {
  return (
    <div role="region" aria-label={caption} tabIndex={0} className={`${tall ? "max-h-[80vh]" : "max-h-96"} overflow-auto rounded-md border border-slate-200 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-800`}>
      <table className="w-full table-fixed">
        <caption className="sr-only">{caption}</caption>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i} data-diff={r.kind}>
              <Cell row={r} side="left" />
              <Cell row={r} side="right" />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function VersionDiff({ versions, currentId }: { versions: VersionText[]; currentId: string }) {
  const current = versions.find((v) => v.id === currentId) ?? versions[0];
  const older = versions.find((v) => v.version < current.version) ?? versions.find((v) => v.id !== current.id) ?? current;
  const [left, setLeft] = useState(older.id);
  const [right, setRight] = useState(current.id);
  const [wide, setWide] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  useReturnFocus(dialog, wide);
  const a = versions.find((v) => v.id === left)!;
  const b = versions.find((v) => v.id === right)!;
  const rows = useMemo(() => sideBySideDiff(a.content, b.content), [a.content, b.content]);
  const changes = rows.filter((r) => r.kind !== "same").length;
  const label = (v: VersionText) => `v${v.version} (${v.status})`;
  const caption = `SKILL.md ${label(a)} compared with ${label(b)}`;
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
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs text-slate-500 dark:text-slate-400" role="status">
          {a.id === b.id ? "The same version on both sides." : changes ? `${pluralise(changes, "changed line")}.` : "No differences."}
        </p>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => {
            setWide(true);
            dialog.current?.showModal();
          }}
        >
          Full width
        </Button>
      </div>
      <DiffTable rows={rows} caption={caption} />
      <dialog
        ref={dialog}
        aria-label={caption}
        onClose={() => setWide(false)}
        className="m-auto w-[min(96vw,110rem)] max-w-none rounded-lg border border-slate-200 bg-white p-4 text-slate-900 shadow-xl backdrop:bg-slate-950/50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
      >
        <div className="mb-3 flex items-center justify-between gap-2">
          <h2 className="text-base font-semibold">{caption}</h2>
          <Button variant="secondary" size="sm" onClick={() => dialog.current?.close()}>
            Close
          </Button>
        </div>
        {wide ? <DiffTable rows={rows} caption={`${caption}, full width`} tall /> : null}
      </dialog>
    </div>
  );
}
