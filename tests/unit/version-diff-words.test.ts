// The version diff's changed lines, cut into words: what each side lacks is marked.
import { describe, expect, it } from "vitest";
import { wordSegments } from "@/lib/learning/review/diff";

describe("wordSegments", () => {
  it("marks the removed word on the left and the added one on the right, keeping the rest", () => {
    const { left, right } = wordSegments("Call lookup_order first", "Call issue_refund first");
    expect(left.filter((s) => s.changed).map((s) => s.text)).toEqual(["lookup_order"]);
    expect(right.filter((s) => s.changed).map((s) => s.text)).toEqual(["issue_refund"]);
    expect(left.map((s) => s.text).join("")).toBe("Call lookup_order first");
    expect(right.map((s) => s.text).join("")).toBe("Call issue_refund first");
  });
});
