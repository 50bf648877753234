// Line diff of two goals texts (the `diff` package), for the Before/After panes.
import { diffArrays } from "diff";

export type DiffLine = { kind: "same" | "removed" | "added"; text: string };

export function diffLines(before: string, after: string): DiffLine[] {
  const lines = (s: string) => (s ? s.split("\n") : []);
  return diffArrays(lines(before), lines(after)).flatMap((c) =>
    c.value.map((text) => ({ kind: c.removed ? "removed" : c.added ? "added" : "same", text }) as const),
  );
}
