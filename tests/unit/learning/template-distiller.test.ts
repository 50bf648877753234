import { describe, expect, it } from "vitest";
import { intentWords, shapeOf } from "@/lib/learning/distill/template-distiller";
import { sharedTerms } from "@/lib/learning/classes/class-intent";
import { distillAndValidate, templateDistiller } from "@/lib/learning/distill/distiller";
import { parseSkillMd, findSection, calledTools } from "@/lib/learning/distill/skill-md";
import { leakProbes } from "@/lib/learning/distill/leaks";
import { distillInput, templateDoc, FAILURES, SUCCESSES, TOOLBOX, run } from "./fixtures";

describe("template distiller", () => {
  it("builds a SKILL.md that passes the validation gate and the deterministic judge", async () => {
    const r = await distillAndValidate(templateDistiller, distillInput(), TOOLBOX);
    expect(r).toMatchObject({ ok: true });
    const doc = (r as { content: string }).content;
    const parsed = parseSkillMd(doc)!;
    expect(parsed.frontmatter.tools).toEqual(["lookup_order", "issue_refund"]);
    expect(parsed.frontmatter.name).toBe("refund-order");
    expect(parsed.frontmatter.preconditions.length).toBeGreaterThan(0);
    expect(calledTools(findSection(parsed.body, "Procedure")!.text)).toEqual(["lookup_order", "issue_refund"]);
    expect(findSection(parsed.body, "Procedure")!.text).toContain("Call `issue_refund` with {order_id: string, amount: number}");
    expect(findSection(parsed.body, "Failure modes observed")!.text).toContain("`issue_refund` failed with RefundWindowClosed");
    expect(doc).toMatch(/When NOT to apply:/);
  });

  it("never copies a value of the runs", () => {
    const doc = templateDoc(distillInput());
    for (const r of [...SUCCESSES, ...FAILURES]) {
      expect(doc).not.toContain(r.steps[0].arguments && (r.steps[0].arguments as { order_id: string }).order_id);
    }
    expect(doc).not.toContain("pat@example.com");
  });

  it("avoids query words that are also argument values, falling back to generic wording", async () => {
    const runs = [0, 1, 2].map((i) => {
      const r = run(`ORD-1000${i}`, 10, { query: `Cancel subscription ${i}` });
      r.steps[0].arguments = { order_id: `ORD-1000${i}`, action: "cancel" };
      return r;
    });
    expect(intentWords(sharedTerms(runs.map((r) => r.query)).shared, leakProbes(runs))).toEqual(["subscription"]);
    const r = await distillAndValidate(templateDistiller, distillInput({ successes: runs, failures: [], queries: runs.map((x) => x.query) }), TOOLBOX);
    expect(r.ok).toBe(true);
  });

  it("drops result shapes when a result key equals an argument value", async () => {
    const runs = [0, 1, 2].map((i) => {
      const r = run(`ORD-2000${i}`, 10);
      r.steps[1].arguments = { order_id: `ORD-2000${i}`, template: "status" };
      return r;
    });
    const doc = templateDoc(distillInput({ successes: runs, failures: [], queries: runs.map((x) => x.query) }));
    expect(doc).not.toContain("{status: string");
    expect((await distillAndValidate(templateDistiller, distillInput({ successes: runs, failures: [], queries: runs.map((x) => x.query) }), TOOLBOX)).ok).toBe(true);
  });

  it("states the previous version's recorded outcomes for a new version", () => {
    const doc = templateDoc(distillInput({ previousVersion: { version: 2, status: "demoted", activations: 40, successes: 22, failures: 18, deviations: 3 } }));
    expect(findSection(parseSkillMd(doc)!.body, "Previous version")!.text).toContain("Version 2 was demoted after 40 runs with it: 22 succeeded, 18 failed, 3 took another path.");
  });

  it("describes a business failure without errors by its last tool", async () => {
    const failed = run("ORD-1", 3);
    failed.outcome = "failure";
    const doc = templateDoc(distillInput({ failures: [failed] }));
    expect(findSection(parseSkillMd(doc)!.body, "Failure modes observed")!.text).toContain("`issue_refund` returned a result that failed");
    expect((await distillAndValidate(templateDistiller, distillInput({ failures: [failed] }), TOOLBOX)).ok).toBe(true);
  });

  it("renders type shapes, never values", () => {
    expect(shapeOf({ id: "x", items: [{ sku: "a", qty: 2 }], ok: true, note: null })).toBe("{id: string, items: [{sku: string, qty: number}], ok: boolean, note: null}");
    expect(shapeOf('{"a": 1}')).toBe("{a: number}");
  });
});
