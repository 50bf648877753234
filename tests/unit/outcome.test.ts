import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { canonicalIdentity } from "@/lib/learning/capture/canonical";
import { decideOutcome, outcomeRuleSchema, valueAtPath } from "@/lib/learning/capture/outcome";

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

  it("a reported failure always counts; a reported success does not override a failing rule", () => {
    expect(decideOutcome({ outcome: "failure", steps: [charged({ accepted: true })] }, rule)).toEqual({ outcome: "FAILURE", source: "REPORTED", learningError: null });
    expect(decideOutcome({ execution_error: null, outcome: "failure", steps: [] }, null)).toMatchObject({ outcome: "FAILURE", source: "REPORTED" });
    expect(decideOutcome({ outcome: "success", steps: [charged({ accepted: false })] }, rule)).toEqual({ outcome: "FAILURE", source: "RULE", learningError: null });
    expect(decideOutcome({ outcome: "success", steps: [charged({ accepted: true })] }, rule)).toEqual({ outcome: "SUCCESS", source: "REPORTED", learningError: null });
  });

  it("the rule decides failures when nothing was reported; a passing rule leaves the default", () => {
    expect(decideOutcome({ steps: [charged({ accepted: false })] }, rule)).toEqual({ outcome: "FAILURE", source: "RULE", learningError: null });
    expect(decideOutcome({ steps: [charged({ accepted: true })] }, rule)).toEqual({ outcome: "SUCCESS", source: "DEFAULT", learningError: null });
    // A run that never called the tool is not failed by the rule.
    expect(decideOutcome({ steps: [{ tool: "lookup_order", result: {} }] }, rule)).toMatchObject({ outcome: "SUCCESS", source: "DEFAULT" });
  });

  it("a run that ends on a step carrying an error failed, unless the agent reports success", () => {
    const declined = [{ tool: "charge_card", arguments: { amount: 1 }, error: { type: "CardDeclined" } }];
    expect(decideOutcome({ steps: declined }, null)).toEqual({ outcome: "FAILURE", source: "STEP_ERROR", learningError: null });
    expect(decideOutcome({ steps: [charged({ accepted: true }), { tool: "send_email", error: "smtp down" }] }, null).source).toBe("STEP_ERROR");
    expect(decideOutcome({ outcome: "success", steps: declined }, null)).toEqual({ outcome: "SUCCESS", source: "REPORTED", learningError: null });
    // An error followed by a step that answered is not the run's end; falsy errors are no errors.
    expect(decideOutcome({ steps: [...declined, charged({ accepted: true })] }, null).source).toBe("DEFAULT");
    expect(decideOutcome({ steps: [{ tool: "x", error: "" }, { tool: "y", error: 0 }] }, null).source).toBe("DEFAULT");
    // The last step in identity order: by timestamps when every step has one.
    const stamped = [
      { tool: "charge_card", error: { type: "CardDeclined" }, timestamp: "2026-11-30T10:00:02Z" },
      { tool: "lookup_order", result: {}, timestamp: "2026-11-30T10:00:01Z" },
    ];
    expect(decideOutcome({ steps: stamped }, null).source).toBe("STEP_ERROR");
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
    expect(decideOutcome({ steps }, rule)).toEqual({ outcome: "SUCCESS", source: "DEFAULT", learningError: null });
  });

  it("a rule that cannot be evaluated fails the run and records why", () => {
    const d = decideOutcome({ steps: [charged({ status: "ok" })] }, rule);
    expect(d.outcome).toBe("FAILURE");
    expect(d.source).toBe("RULE");
    expect(d.learningError).toMatch(/accepted/);
    expect(decideOutcome({ steps: [charged("plain text")] }, rule).learningError).toMatch(/could not be evaluated/);
    expect(decideOutcome({ steps: [] }, { fail_when: "nonsense" }).learningError).toMatch(/malformed/);
  });

  it("an unevaluable rule fails even a run reported as a success", () => {
    expect(decideOutcome({ outcome: "success", steps: [charged({ status: "ok" })] }, rule)).toMatchObject({ outcome: "FAILURE", source: "RULE", learningError: expect.stringMatching(/accepted/) });
  });

  it("without a rule, a report or a failed last step the run succeeded by default", () => {
    expect(decideOutcome({ steps: [charged({ accepted: false })] }, null)).toEqual({ outcome: "SUCCESS", source: "DEFAULT", learningError: null });
    expect(decideOutcome({ steps: [] }, null).source).toBe("DEFAULT");
  });

  it("ingestion's shortcut (the identity's last unit) decides exactly as ordering the steps does", () => {
    const step = fc.record(
      {
        tool: fc.constantFrom("charge_card", "lookup_order"),
        arguments: fc.constantFrom({ amount: 1 }, { order_id: "A" }),
        result: fc.constantFrom({ accepted: true }, { accepted: false }),
        error: fc.constantFrom(null, "", 0, "boom", { type: "CardDeclined" }),
        timestamp: fc.constantFrom("2026-11-30T10:00:01Z", "2026-11-30T10:00:02Z", "2026-11-30 10:00:03+01:00", "not a time"),
      },
      { requiredKeys: ["tool"] },
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 6 }), fc.constantFrom(undefined, "success", "failure"), fc.constantFrom(null, rule), (steps, outcome, r) => {
        const run = { steps, outcome: outcome as "success" | "failure" | undefined };
        expect(decideOutcome(run, r, canonicalIdentity(steps))).toEqual(decideOutcome(run, r));
      }),
    );
  });

  it("validates rules strictly", () => {
    expect(outcomeRuleSchema.safeParse(rule).success).toBe(true);
    expect(outcomeRuleSchema.safeParse({ fail_when: [] }).success).toBe(false);
    expect(outcomeRuleSchema.safeParse({ fail_when: [{ tool: "t", path: "a..b", equals: 1 }] }).success).toBe(false);
    expect(outcomeRuleSchema.safeParse({ fail_when: [{ tool: "t", path: "a", equals: 1, equal: 2 }] }).success).toBe(false);
    expect(outcomeRuleSchema.safeParse({ fail_when: [{ tool: "t", path: "a" }] }).success).toBe(false);
  });
});
