// Pure parts of the review pages: every learning setting is on the settings page exactly
// once and the SKILL.md version diff (the class status rule is SQL: class-gates.test.ts).
import { describe, expect, it } from "vitest";
import { DEFAULT_LEARNING_CONFIG, LEARNING_SCOPES } from "@/lib/learning/agents/config";
import { AUTHORITY_KEYS, CONFIG_GROUPS } from "@/lib/learning/review/config-fields";
import { sideBySideDiff } from "@/lib/learning/review/diff";

describe("settings fields", () => {
  it("present every configuration key exactly once, in the sections the settings page shows", () => {
    const shown = [...CONFIG_GROUPS.flatMap((g) => g.fields.map((f) => f.key as string)), ...AUTHORITY_KEYS];
    expect(shown.length).toBe(new Set(shown).size);
    expect(new Set(shown)).toEqual(new Set(Object.keys(DEFAULT_LEARNING_CONFIG)));
    const labels = CONFIG_GROUPS.flatMap((g) => g.fields.map((f) => f.label));
    expect(labels.length).toBe(new Set(labels).size);
    expect(CONFIG_GROUPS.map((g) => g.id)).toEqual(["ingestion", "gates", "distillation", "shadow", "injection", "monitoring", "ledger", "retention"]);
  });

  it("offer the schema's values for a choice, and only choices have options", () => {
    const fields = CONFIG_GROUPS.flatMap((g) => g.fields);
    const choices = fields.filter((f) => f.kind === "choice");
    expect(choices.map((f) => [f.key, f.options?.map((o) => o.value)])).toEqual([["learning_scope", [...LEARNING_SCOPES]]]);
    expect(fields.filter((f) => f.kind !== "choice" && f.options)).toEqual([]);
  });
});

describe("side-by-side diff", () => {
  it("keeps common lines aligned and pairs changes", () => {
    const rows = sideBySideDiff("a\nb\nc\nd", "a\nB\nc\nd\ne");
    expect(rows.map((r) => r.kind)).toEqual(["same", "changed", "same", "same", "added"]);
    expect(rows[1]).toEqual({ kind: "changed", left: { line: 2, text: "b" }, right: { line: 2, text: "B" } });
    expect(rows[4]).toEqual({ kind: "added", left: null, right: { line: 5, text: "e" } });
    expect(sideBySideDiff("x\ny", "y").map((r) => r.kind)).toEqual(["removed", "same"]);
    expect(sideBySideDiff("same", "same").every((r) => r.kind === "same")).toBe(true);
  });
});
