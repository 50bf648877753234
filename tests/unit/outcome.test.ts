import { describe, expect, it } from "vitest";
import { decideOutcome, outcomeRuleSchema, valueAtPath } from "@/lib/learning/outcome";
import { DEFAULT_LEARNING_CONFIG, learningConfigSchema } from "@/lib/learning/config";
import { agentPutBody } from "@/lib/api/v1/schemas";

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

describe("learning configuration (learningConfigSchema)", () => {
  it("fills every default", () => {
    expect(learningConfigSchema.parse({})).toEqual(DEFAULT_LEARNING_CONFIG);
    expect(DEFAULT_LEARNING_CONFIG).toMatchObject({
      min_executions: 5,
      min_success_rate: 0.8,
      min_distinct_queries: 2,
      max_days_since_last_seen: 30,
      require_shadow: false,
      skill_injection_role: "user",
      retrieval_min_similarity: 0.7,
      max_skills_in_context: 2,
      promotion_every_n_runs: 25,
    });
    // Every key of the reference configuration (spec §1.4) is present.
    for (const key of [
      "recency_halflife_days", "max_promotions_per_cycle", "distill_sample_size", "include_failure_samples",
      "skill_max_content_chars", "shadow_evaluation_enabled", "shadow_evaluation_max_candidates",
      "shadow_evaluation_min_similarity", "shadow_evaluation_queue_size", "shadow_evaluation_recent_window",
      "shadow_readiness_min_observations", "shadow_readiness_min_trajectory_match_rate",
      "shadow_readiness_min_matched_success_rate", "include_exemplar", "drift_window_activations",
      "demotion_success_delta", "min_activations_before_drift_check",
    ]) expect(DEFAULT_LEARNING_CONFIG).toHaveProperty(key);
  });

  it("refuses unknown keys", () => {
    const r = learningConfigSchema.safeParse({ min_executions: 3, bogus: true });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0].code).toBe("unrecognized_keys");
  });

  it("refuses developer authority without shadow review, accepts it with", () => {
    const r = learningConfigSchema.safeParse({ skill_injection_role: "developer" });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0].message).toMatch(/require_shadow/);
    expect(learningConfigSchema.parse({ skill_injection_role: "DEVELOPER", require_shadow: true }).skill_injection_role).toBe("developer");
    expect(learningConfigSchema.safeParse({ skill_injection_role: "system" }).success).toBe(false);
  });

  it("checks ranges", () => {
    expect(learningConfigSchema.safeParse({ min_success_rate: 1.5 }).success).toBe(false);
    expect(learningConfigSchema.safeParse({ min_executions: 0 }).success).toBe(false);
    expect(learningConfigSchema.safeParse({ shadow_evaluation_min_similarity: null }).success).toBe(true);
  });

  it("is what the agent PUT body validates", () => {
    expect(agentPutBody.safeParse({ name: "a", learning: { nope: 1 } }).success).toBe(false);
    expect(agentPutBody.parse({ name: "a" }).learning).toEqual(DEFAULT_LEARNING_CONFIG);
    expect(agentPutBody.safeParse({ name: "a", tools: [{ name: "x" }, { name: "x" }] }).success).toBe(false);
  });
});
