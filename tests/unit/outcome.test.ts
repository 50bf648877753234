import { describe, expect, it } from "vitest";
import { decideOutcome, outcomeRuleSchema, valueAtPath } from "@/lib/learning/outcome";

const rule = { fail_when: [{ tool: "charge_card", path: "accepted", equals: false }] };
const charged = (result: unknown, extra: object = {}) => ({ tool: "charge_card", arguments: { amount: 1 }, result, ...extra });

describe("outcome", () => {
  it("an execution error is a failure whatever the agent reports", () => {
    expect(decideOutcome({ execution_error: "crashed", outcome: "success", steps: [] }, null)).toEqual({
      outcome: "FAILURE",
      source: "EXECUTION",
      learningError: null,
    });
    expect(decideOutcome({ execution_error: { type: "Boom" }, steps: [charged({ accepted: true })] }, rule).source).toBe("EXECUTION");
  });

  it("a reported outcome wins over the rule", () => {
    expect(decideOutcome({ outcome: "success", steps: [charged({ accepted: false })] }, rule)).toEqual({
      outcome: "SUCCESS",
      source: "REPORTED",
      learningError: null,
    });
    expect(decideOutcome({ execution_error: null, outcome: "failure", steps: [] }, null)).toMatchObject({ outcome: "FAILURE", source: "REPORTED" });
  });

  it("the rule decides when nothing was reported", () => {
    expect(decideOutcome({ steps: [charged({ accepted: false })] }, rule)).toEqual({ outcome: "FAILURE", source: "RULE", learningError: null });
    expect(decideOutcome({ steps: [charged({ accepted: true })] }, rule)).toEqual({ outcome: "SUCCESS", source: "RULE", learningError: null });
    // A run that never called the tool is not failed by the rule.
    expect(decideOutcome({ steps: [{ tool: "lookup_order", result: {} }] }, rule)).toMatchObject({ outcome: "SUCCESS", source: "RULE" });
  });

  it("follows dotted paths, parses JSON-text results and compares JSON values deeply", () => {
    const nested = { fail_when: [{ tool: "charge_card", path: "charge.status", equals: { code: "declined" } }] };
    expect(decideOutcome({ steps: [charged({ charge: { status: { code: "declined" } } })] }, nested).outcome).toBe("FAILURE");
    expect(decideOutcome({ steps: [charged(JSON.stringify({ charge: { status: { code: "ok" } } }))] }, nested).outcome).toBe("SUCCESS");
    expect(valueAtPath({ a: { b: null } }, "a.b")).toEqual({ ok: true, value: null });
    expect(valueAtPath({ a: [1] }, "a.0")).toEqual({ ok: false });
  });

  it("skips failed attempts: a retried call is judged by the attempt that answered", () => {
    const steps = [charged(undefined, { error: { type: "TimeoutError" } }), charged({ accepted: true })];
    expect(decideOutcome({ steps }, rule)).toEqual({ outcome: "SUCCESS", source: "RULE", learningError: null });
  });

  it("a rule that cannot be evaluated fails the run and records why", () => {
    const d = decideOutcome({ steps: [charged({ status: "ok" })] }, rule);
    expect(d.outcome).toBe("FAILURE");
    expect(d.source).toBe("RULE");
    expect(d.learningError).toMatch(/accepted/);
    expect(decideOutcome({ steps: [charged("plain text")] }, rule).learningError).toMatch(/could not be evaluated/);
    expect(decideOutcome({ steps: [] }, { fail_when: "nonsense" }).learningError).toMatch(/malformed/);
  });

  it("without a rule or a report the run succeeded", () => {
    expect(decideOutcome({ steps: [charged({ accepted: false })] }, null)).toEqual({ outcome: "SUCCESS", source: "EXECUTION", learningError: null });
  });

  it("validates rules strictly", () => {
    expect(outcomeRuleSchema.safeParse(rule).success).toBe(true);
    expect(outcomeRuleSchema.safeParse({ fail_when: [] }).success).toBe(false);
    expect(outcomeRuleSchema.safeParse({ fail_when: [{ tool: "t", path: "a..b", equals: 1 }] }).success).toBe(false);
    expect(outcomeRuleSchema.safeParse({ fail_when: [{ tool: "t", path: "a", equals: 1, equal: 2 }] }).success).toBe(false);
    expect(outcomeRuleSchema.safeParse({ fail_when: [{ tool: "t", path: "a" }] }).success).toBe(false);
  });
});
