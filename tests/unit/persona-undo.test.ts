// Which applied change the next undo reverts (lib/persona/undo.ts): the undo operation and the
// page's Undo button both ask this, so repeated undos walk back one approved version each.
import { describe, expect, it } from "vitest";
import { changeToUndo } from "@/lib/persona/undo";

type E = { v: number; undo?: true };
const next = (history: E[]) => changeToUndo(history, (e) => e.undo === true)?.v ?? null;

describe("changeToUndo", () => {
  it("reverts the newest applied change not yet undone, down to none", () => {
    expect(next([])).toBeNull();
    expect(next([{ v: 2 }, { v: 3 }])).toBe(3);
    expect(next([{ v: 2 }, { v: 3 }, { v: 4, undo: true }])).toBe(2);
    expect(next([{ v: 2 }, { v: 3 }, { v: 4, undo: true }, { v: 5, undo: true }])).toBeNull();
  });

  it("reverts a change approved after an undo first", () => {
    expect(next([{ v: 2 }, { v: 3 }, { v: 4, undo: true }, { v: 5 }])).toBe(5);
    expect(next([{ v: 2 }, { v: 3 }, { v: 4, undo: true }, { v: 5 }, { v: 6, undo: true }])).toBe(2);
  });

  it("stays exact when the oldest history was pruned", () => {
    // v2 and v3 pruned; v4 undid v3, v5 undid v2, v6 was approved later.
    expect(next([{ v: 4, undo: true }, { v: 5, undo: true }, { v: 6 }])).toBe(6);
    expect(next([{ v: 4, undo: true }, { v: 5, undo: true }])).toBeNull();
  });
});
