import { describe, expect, it } from "vitest";
import { DEFAULT_LEARNING_CONFIG, distinctUsersThreshold, learningConfigSchema, runUserScope, skillScopesFor } from "@/lib/learning/agents/config";
import { agentPutBody } from "@/lib/api/v1/schemas";

describe("learning configuration (learningConfigSchema)", () => {
  it("fills every default", () => {
    expect(learningConfigSchema.parse({})).toEqual(DEFAULT_LEARNING_CONFIG);
    expect(DEFAULT_LEARNING_CONFIG).toMatchObject({
      min_executions: 5,
      min_success_rate: 0.8,
      min_distinct_queries: 2,
      // New agents pool their accounts' runs, gated on three distinct accounts.
      learning_scope: "agent",
      min_distinct_users: 3,
      max_days_since_last_seen: 30,
      // Review first: nothing goes ACTIVE without an admin unless the agent opts out.
      require_shadow: true,
      auto_activate: false,
      require_qualification: false,
      skill_injection_role: "user",
      retrieval_min_similarity: 0.7,
      max_skills_in_context: 2,
      promotion_every_n_runs: 25,
    });
    // Every key of MemoRizz's configuration is present.
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
    const r = learningConfigSchema.safeParse({ skill_injection_role: "developer", require_shadow: false });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0].message).toMatch(/require_shadow/);
    expect(learningConfigSchema.parse({ skill_injection_role: "DEVELOPER", require_shadow: true }).skill_injection_role).toBe("developer");
    expect(learningConfigSchema.safeParse({ skill_injection_role: "system" }).success).toBe(false);
  });

  it("refuses auto-activation with shadow review, and qualification without it", () => {
    const auto = learningConfigSchema.safeParse({ auto_activate: true });
    expect(auto.error!.issues.map((i) => [i.path.join("."), i.message])).toEqual([["auto_activate", expect.stringContaining("require_shadow=false")]]);
    expect(learningConfigSchema.parse({ auto_activate: true, require_shadow: false })).toMatchObject({ auto_activate: true, require_shadow: false });
    const qual = learningConfigSchema.safeParse({ require_qualification: true, require_shadow: false });
    expect(qual.error!.issues.map((i) => i.path.join("."))).toEqual(["require_qualification"]);
    expect(learningConfigSchema.parse({ require_qualification: true }).require_qualification).toBe(true);
    expect(learningConfigSchema.safeParse({ auto_activate: "yes" }).success).toBe(false);
  });

  it("checks ranges", () => {
    expect(learningConfigSchema.safeParse({ min_success_rate: 1.5 }).success).toBe(false);
    expect(learningConfigSchema.safeParse({ min_executions: 0 }).success).toBe(false);
    expect(learningConfigSchema.safeParse({ shadow_evaluation_min_similarity: null }).success).toBe(true);
  });

  it("has the ledger qualification keys with the ledger's defaults and validation", () => {
    expect(DEFAULT_LEARNING_CONFIG).toMatchObject({
      ledger_baseline_revision: "no-skill",
      ledger_qualification_trials: 128,
      ledger_confidence_delta: 0.01,
      ledger_min_improvement: 0.05,
      ledger_min_candidate_utility: 0.7,
      ledger_max_cost_units: 10_000,
      ledger_max_latency_ms: 60_000,
      ledger_max_failure_streak: 3,
      ledger_evaluator_id: "proctor-paired-evaluator",
      ledger_evaluation_contract: "proctor-skill-paired-v1",
    });
    for (const bad of [
      { ledger_qualification_trials: 1 },
      { ledger_confidence_delta: 0.5 },
      { ledger_min_improvement: 1.5 },
      { ledger_max_cost_units: Number.MAX_SAFE_INTEGER + 1 },
      { ledger_max_failure_streak: 0 },
      { ledger_baseline_revision: "  " },
      { ledger_evaluator_id: "x".repeat(513) },
      { ledger_evaluation_contract: "a\u0000b" },
    ]) expect(learningConfigSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    expect(learningConfigSchema.parse({ ledger_baseline_revision: "skill-v1", ledger_qualification_trials: 2 })).toMatchObject({ ledger_baseline_revision: "skill-v1", ledger_qualification_trials: 2 });
  });

  it("checks the learning scope and the distinct-accounts threshold", () => {
    expect(learningConfigSchema.parse({ learning_scope: "user", min_distinct_users: 1 })).toMatchObject({ learning_scope: "user", min_distinct_users: 1 });
    expect(learningConfigSchema.safeParse({ learning_scope: "tenant" }).error!.issues[0].message).toBe("learning_scope must be agent or user");
    expect(learningConfigSchema.safeParse({ min_distinct_users: 0 }).success).toBe(false);
    expect(learningConfigSchema.safeParse({ min_distinct_users: 2.5 }).success).toBe(false);
  });

  it("scopes runs and skills by the learning scope", () => {
    const agent = { ...DEFAULT_LEARNING_CONFIG, learning_scope: "agent" as const };
    const user = { ...DEFAULT_LEARNING_CONFIG, learning_scope: "user" as const };
    // Runs: one agent-wide class per procedure, or the account's own.
    expect([runUserScope(agent, "acct-1"), runUserScope(agent, null)]).toEqual(["", ""]);
    expect([runUserScope(user, "acct-1"), runUserScope(user, undefined)]).toEqual(["acct-1", ""]);
    // Skills: the agent-wide ones always, the account's own under "user" only.
    expect([skillScopesFor(agent, "acct-1"), skillScopesFor(agent, null)]).toEqual([[""], [""]]);
    expect([skillScopesFor(user, "acct-1"), skillScopesFor(user, null)]).toEqual([["", "acct-1"], [""]]);
    expect([distinctUsersThreshold(agent), distinctUsersThreshold({ ...user, min_distinct_users: 7 })]).toEqual([3, 0]);
  });

  it("is what the agent PUT body validates", () => {
    expect(agentPutBody.safeParse({ name: "a", learning: { nope: 1 } }).success).toBe(false);
    // learning_scope may be left out of a declaration: a new agent pools, an existing one keeps its scope.
    const { learning_scope: _scope, ...rest } = DEFAULT_LEARNING_CONFIG;
    expect(agentPutBody.parse({ name: "a" }).learning).toEqual(rest);
    expect(agentPutBody.parse({ name: "a", learning: { learning_scope: "user" } }).learning.learning_scope).toBe("user");
    expect(agentPutBody.safeParse({ name: "a", learning: { learning_scope: "everyone" } }).success).toBe(false);
    expect(agentPutBody.safeParse({ name: "a", tools: [{ name: "x" }, { name: "x" }] }).success).toBe(false);
  });
});
