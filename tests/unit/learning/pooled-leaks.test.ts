// The leak check with pooled runs (learning_scope "agent"): a class's sample holds several
// accounts' runs, and neither the distiller's document nor the validation gate may let one
// account's literals (order ids, amounts, e-mail addresses) into the skill every account receives.
import { describe, expect, it } from "vitest";
import { distillAndValidate, templateDistiller } from "@/lib/learning/distill/distiller";
import { findLeak, leakProbes } from "@/lib/learning/distill/leaks";
import { templateDistill } from "@/lib/learning/distill/template-distiller";
import { machineChecks } from "@/lib/learning/distill/validation-gate";
import { GOOD_SKILL, TOOLBOX, distillInput, run } from "./fixtures";

// Three accounts' refunds, each with its own order, amount and address.
const ACCOUNTS = [
  { order: "ORD-31001", amount: 12.5, email: "ana@acme.example", query: "Refund order ORD-31001 please" },
  { order: "ORD-42002", amount: 40, email: "bo@bolt.example", query: "I want a refund for ORD-42002" },
  { order: "ORD-53003", amount: 9.99, email: "cy@corp.example", query: "Refund my order ORD-53003, it arrived broken" },
];
const POOLED = ACCOUNTS.map((a) => run(a.order, a.amount, { query: a.query, email: a.email }));
const LITERALS = ACCOUNTS.flatMap((a) => [a.order, a.email, `RF-${a.order}-0091`]);
// A trigger query of a fourth account: read by the template distiller, not part of the sample.
const OTHER_QUERY = "refund order ORD-64004 for dee@dune.example";

const checks = (content: string, queries?: string[]) =>
  machineChecks({ content, toolbox: TOOLBOX, maxChars: 4000, successes: POOLED, failures: [], ...(queries ? { queries } : {}) }).reasons;

describe("leak check over pooled runs", () => {
  it("probes every account's values", () => {
    const probes = leakProbes(POOLED).map((p) => p.value.toLowerCase());
    for (const v of LITERALS) expect(probes, v).toContain(v.toLowerCase());
  });

  it("refuses a document carrying any one account's literal", () => {
    expect(checks(GOOD_SKILL)).toEqual([]);
    for (const v of LITERALS) {
      const doc = GOOD_SKILL.replace("A customer wants money back", `A customer (e.g. ${v}) wants money back`);
      expect(checks(doc), v).toEqual([`literal value leaked into skill: '${v}'`]);
    }
  });

  it("probes the trigger queries the distiller read besides the samples", () => {
    const doc = GOOD_SKILL.replace("A customer wants money back", "A customer (e.g. ORD-64004) wants money back");
    expect(checks(doc)).toEqual([]);
    expect(checks(doc, [OTHER_QUERY])).toEqual(["literal value leaked into skill: 'ORD-64004'"]);
    expect(findLeak("write to dee@dune.example", leakProbes(POOLED, [OTHER_QUERY]))).toBe("dee@dune.example");
  });

  it("distills the pooled class offline without any account's literal", async () => {
    const input = distillInput({ successes: POOLED, failures: [], queries: [...ACCOUNTS.map((a) => a.query), OTHER_QUERY] });
    const distilled = templateDistill(input);
    expect("content" in distilled).toBe(true);
    const content = (distilled as { content: string }).content;
    for (const v of [...LITERALS, "ORD-64004", "dee@dune.example", "12.5", "9.99"]) expect(content.toLowerCase(), v).not.toContain(v.toLowerCase());
    const result = await distillAndValidate(templateDistiller, input, TOOLBOX);
    expect(result).toEqual({ ok: true, content });
  });
});
