import { describe, expect, it } from "vitest";
import { learningConfigSchema } from "@/lib/learning/agents/config";
import { configIssueMessage } from "@/lib/learning/review/config-errors";

const messages = (input: Record<string, unknown>) => {
  const r = learningConfigSchema.safeParse(input);
  if (r.success) throw new Error("expected a refusal");
  return Object.fromEntries(r.error.issues.map((i) => [String(i.path[0]), configIssueMessage(i as never)]));
};

describe("settings errors in words", () => {
  it("names the field's kind and bound, never NaN or the schema's jargon", () => {
    const m = messages({ min_executions: Number.NaN, min_success_rate: 1.5, max_promotions_per_cycle: 2.5, recency_halflife_days: 0, skill_max_content_chars: 10 });
    expect(m).toEqual({
      min_executions: "Enter a whole number.",
      min_success_rate: "Enter a number of at most 1.",
      max_promotions_per_cycle: "Enter a whole number.",
      recency_halflife_days: "Enter a number greater than 0.",
      skill_max_content_chars: "Enter a whole number of at least 200.",
    });
    for (const text of Object.values(m)) expect(text).not.toMatch(/NaN|expected|received/);
  });

  it("keeps a custom rule's own words as a sentence", () => {
    const m = messages({ ledger_confidence_delta: 0.9, skill_injection_role: "developer", require_shadow: false });
    expect(m.ledger_confidence_delta).toBe("Must be in (0, 0.5).");
    expect(m.skill_injection_role).toMatch(/^Developer authority requires require_shadow=true/);
  });
});
