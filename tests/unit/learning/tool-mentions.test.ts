import { describe, expect, it } from "vitest";
import { toolFieldsOf, toolMentions } from "@/lib/learning/distill/tool-mentions";

describe("tool mentions", () => {
  it("reads backticked names, call verbs and call syntax, and leaves prose alone", () => {
    expect(toolMentions("Use `a_b`, then invoke `c` and call d(); e_f(x=1) or `g.h`.")).toEqual([
      { name: "a_b", call: false },
      { name: "c", call: false },
      { name: "g.h", call: false },
      { name: "a_b", call: false },
      { name: "c", call: true },
      { name: "d", call: true },
      { name: "e_f", call: true },
    ]);
    expect(toolMentions("Use the refund tool; call them back; the value(s) and amount(in cents) `{id: string}` `x` then `y`")).toEqual([
      { name: "x", call: false },
      { name: "y", call: false },
    ]);
  });

  it("takes parameter names from the toolbox's JSON schemas, nested ones included", () => {
    const fields = toolFieldsOf([
      { name: "issue_refund", parameters: { type: "object", properties: { order_id: { type: "string" }, lines: { type: "array", items: { type: "object", properties: { sku: {} } } } } } },
      { name: "ping" },
    ]);
    expect([...fields.get("issue_refund")!]).toEqual(["order_id", "lines", "sku"]);
    expect([...fields.get("ping")!]).toEqual([]);
  });
});
