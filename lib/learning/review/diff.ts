// A line diff (the `diff` package) laid out side by side, for comparing SKILL.md versions.
// Browser-safe.
import { diffArrays, diffWordsWithSpace } from "diff";

export type DiffCell = { line: number; text: string } | null;
export type DiffRow = { kind: "same" | "changed" | "removed" | "added"; left: DiffCell; right: DiffCell };

/** Rows for a two-column view: runs of deletions and additions are paired line by line. */
export function sideBySideDiff(before: string, after: string): DiffRow[] {
  const rows: DiffRow[] = [];
  let left = 0, right = 0;
  let dels: string[] = [], adds: string[] = [];
  const pair = () => {
    for (let x = 0; x < Math.max(dels.length, adds.length); x++) {
      const l = dels[x], r = adds[x];
      rows.push({
        kind: l !== undefined && r !== undefined ? "changed" : l !== undefined ? "removed" : "added",
        left: l !== undefined ? { line: ++left, text: l } : null,
        right: r !== undefined ? { line: ++right, text: r } : null,
      });
    }
    dels = [];
    adds = [];
  };
  for (const change of diffArrays(before.split("\n"), after.split("\n"))) {
    if (change.removed) dels.push(...change.value);
    else if (change.added) adds.push(...change.value);
    else {
      pair();
      for (const text of change.value) rows.push({ kind: "same", left: { line: ++left, text }, right: { line: ++right, text } });
    }
  }
  pair();
  return rows;
}

export type Segment = { text: string; changed: boolean };

/** A changed line's two sides cut into words, each marked when the other side lacks it. */
export function wordSegments(before: string, after: string): { left: Segment[]; right: Segment[] } {
  const left: Segment[] = [];
  const right: Segment[] = [];
  for (const c of diffWordsWithSpace(before, after)) {
    if (!c.added) left.push({ text: c.value, changed: Boolean(c.removed) });
    if (!c.removed) right.push({ text: c.value, changed: Boolean(c.added) });
  }
  return { left, right };
}
