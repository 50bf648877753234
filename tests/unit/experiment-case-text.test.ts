import { describe, expect, it } from "vitest";
import { parseCases } from "../../lib/experiments/case-text";

describe("pasted experiment cases", () => {
  it("reads JSON Lines, one case a line, blank lines ignored", () => {
    const r = parseCases('{"request":"a","expected_answer":"1"}\n\n{"request":"b","expected_path":["lookup"]}\n');
    expect(r).toEqual({ ok: true, cases: [{ request: "a", expected_answer: "1" }, { request: "b", expected_path: ["lookup"] }] });
  });
  it("reads a YAML list", () => {
    const r = parseCases("- request: refund order 7\n  expected_path: [lookup_order, refund]\n- request: hi\n  expected_answer: hello\n");
    expect(r).toEqual({ ok: true, cases: [{ request: "refund order 7", expected_path: ["lookup_order", "refund"] }, { request: "hi", expected_answer: "hello" }] });
  });
  it("names the line or item that is wrong", () => {
    expect(parseCases('{"request":"a"}\n{"request":')).toMatchObject({ ok: false, message: expect.stringMatching(/^Line 2 is not valid JSON/) });
    expect(parseCases("- request: a\n- 3\n")).toEqual({ ok: false, message: "Item 2 of the list is not a case object." });
    expect(parseCases("request: a")).toMatchObject({ ok: false, message: expect.stringContaining("must be a list") });
    expect(parseCases("  \n")).toEqual({ ok: false, message: "Enter at least one case." });
    expect(parseCases("- [unclosed")).toMatchObject({ ok: false, message: expect.stringContaining("neither JSON Lines nor valid YAML") });
  });
});
