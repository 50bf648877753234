// A line diff (longest common subsequence) laid out side by side, for comparing SKILL.md
// versions. Documents are small (a few thousand characters), so the quadratic table is fine.
// Browser-safe.

export type DiffCell = { line: number; text: string } | null;
export type DiffRow = { kind: "same" | "changed" | "removed" | "added"; left: DiffCell; right: DiffCell };

type Op = { op: "same" | "del" | "add"; a?: number; b?: number };

function operations(a: string[], b: string[]): Op[] {
  const n = a.length, m = b.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const ops: Op[] = [];
  let i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) ops.push({ op: "same", a: i++, b: j++ });
    else if (j < m && (i === n || lcs[i][j + 1] >= lcs[i + 1][j])) ops.push({ op: "add", b: j++ });
    else ops.push({ op: "del", a: i++ });
  }
  return ops;
}

/** Rows for a two-column view: runs of deletions and additions are paired line by line. */
export function sideBySideDiff(before: string, after: string): DiffRow[] {
  const a = before.split("\n"), b = after.split("\n");
  const rows: DiffRow[] = [];
  const ops = operations(a, b);
  for (let k = 0; k < ops.length; ) {
    if (ops[k].op === "same") {
      const { a: i, b: j } = ops[k++];
      rows.push({ kind: "same", left: { line: i! + 1, text: a[i!] }, right: { line: j! + 1, text: b[j!] } });
      continue;
    }
    const dels: number[] = [], adds: number[] = [];
    while (k < ops.length && ops[k].op !== "same") {
      if (ops[k].op === "del") dels.push(ops[k].a!);
      else adds.push(ops[k].b!);
      k++;
    }
    for (let x = 0; x < Math.max(dels.length, adds.length); x++) {
      const l = dels[x], r = adds[x];
      rows.push({
        kind: l !== undefined && r !== undefined ? "changed" : l !== undefined ? "removed" : "added",
        left: l !== undefined ? { line: l + 1, text: a[l] } : null,
        right: r !== undefined ? { line: r + 1, text: b[r] } : null,
      });
    }
  }
  return rows;
}
