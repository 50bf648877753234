import { describe, expect, it } from "vitest";
import { shadowReadiness, shadowStatsOf } from "@/lib/learning/shadow/readiness";
import { DEFAULT_LEARNING_CONFIG } from "@/lib/learning/agents/config";

describe("shadow readiness (advisory)", () => {
  it("reports every threshold reason in order", () => {
    const r = shadowReadiness(
      shadowStatsOf({ observations: 7, trajectory_matches: 5, trajectory_mismatches: 2, matched_successes: 3, matched_failures: 2 }),
      DEFAULT_LEARNING_CONFIG,
    );
    expect(r).toEqual({
      ready: false,
      observations: 7,
      trajectory_match_rate: 5 / 7,
      matched_success_rate: 0.6,
      reasons: ["observations 7 < 10", "trajectory match rate 0.71 < 0.80", "matched success rate 0.60 < 0.80"],
    });
  });
  it("is ready when every threshold holds", () => {
    const r = shadowReadiness(
      shadowStatsOf({ observations: 12, trajectory_matches: 10, trajectory_mismatches: 2, matched_successes: 10, matched_failures: 0 }),
      DEFAULT_LEARNING_CONFIG,
    );
    expect(r.ready).toBe(true);
    expect(r.reasons).toEqual([]);
    expect(r.trajectory_match_rate).toBeCloseTo(0.83, 2);
  });
  it("treats missing statistics as zero observations", () => {
    expect(shadowReadiness(shadowStatsOf({}), DEFAULT_LEARNING_CONFIG)).toEqual({
      ready: false,
      observations: 0,
      trajectory_match_rate: 0,
      matched_success_rate: 0,
      reasons: ["observations 0 < 10", "trajectory match rate 0.00 < 0.80", "matched success rate 0.00 < 0.80"],
    });
  });
});
