// The shadow evaluation record and statistics: incremental updates always equal a full
// recount of the records; the enqueue preconditions; readiness wording.
import { describe, expect, it } from "vitest";
import { applyRecord, buildRecord, recountStats, type ShadowRecord } from "@/lib/learning/shadow/record";
import { shadowEligible } from "@/lib/learning/shadow/enqueue";
import { shadowReadiness, shadowStatsOf } from "@/lib/learning/shadow/readiness";
import { DEFAULT_LEARNING_CONFIG } from "@/lib/learning/agents/config";

const skill = { id: "sk1", version: 2, sourceCanonicalHash: "h-skill" };
const at = (s: number) => new Date(Date.UTC(2026, 10, 30, 10, 0, s));

describe("shadow evaluation record", () => {
  it("compares the expected and observed hashes and the recorded outcome", () => {
    const matched = buildRecord({ id: "r1", canonicalHash: "h-skill", outcome: "SUCCESS" }, skill, 0.91, at(1));
    expect(matched).toEqual({
      idempotency_key: "r1:sk1:v1",
      skill_id: "sk1",
      skill_version: 2,
      similarity: 0.91,
      expected_canonical_hash: "h-skill",
      observed_canonical_hash: "h-skill",
      trajectory_match: true,
      applicability_mismatch: false,
      matched_trajectory_succeeded: true,
      observed_outcome: "success",
      evaluated_at: "2026-11-30T10:00:01.000Z",
      evaluator_version: "v1",
    });
    const other = buildRecord({ id: "r2", canonicalHash: "h-other", outcome: "SUCCESS" }, skill, 0.8, at(2));
    expect(other).toMatchObject({ trajectory_match: false, applicability_mismatch: true, matched_trajectory_succeeded: null });
    const failed = buildRecord({ id: "r3", canonicalHash: "h-skill", outcome: "FAILURE" }, skill, 0.8, at(3));
    expect(failed).toMatchObject({ trajectory_match: true, matched_trajectory_succeeded: false, observed_outcome: "failure" });
    expect(buildRecord({ id: "r4", canonicalHash: "h", outcome: null }, skill, 0.8, at(4)).observed_outcome).toBe("failure");
    // A skill without a source hash never matches.
    expect(buildRecord({ id: "r5", canonicalHash: "h", outcome: "SUCCESS" }, { ...skill, sourceCanonicalHash: null }, 0.8, at(5)).trajectory_match).toBe(false);
  });

  it("reference case: matching, mismatching and failed runs update separate counters (4 obs, 2 matches, 1/1, window 2)", () => {
    const runs = [
      { id: "a", canonicalHash: "h-skill", outcome: "SUCCESS" },
      { id: "b", canonicalHash: "h-skill", outcome: "FAILURE" },
      { id: "c", canonicalHash: "h-other", outcome: "SUCCESS" },
      { id: "d", canonicalHash: "h-other", outcome: "FAILURE" },
    ];
    let stats: unknown = {};
    const records = runs.map((r, i) => buildRecord(r, skill, 0.9, at(i)));
    for (const rec of records) stats = applyRecord(stats, rec, 2);
    expect(stats).toMatchObject({ observations: 4, trajectory_matches: 2, trajectory_mismatches: 2, matched_successes: 1, matched_failures: 1, last_evaluated_at: at(3).toISOString() });
    expect((stats as { recent_evaluations: ShadowRecord[] }).recent_evaluations.map((r) => r.idempotency_key)).toEqual(["c:sk1:v1", "d:sk1:v1"]);
    expect(stats).toEqual(recountStats(records, 2));
    // The recount de-duplicates by idempotency key (a retried evaluation counts once).
    expect(recountStats([...records, records[0]], 2)).toEqual(stats);
  });

  it("incremental statistics equal a full recount for any order of records", () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let trial = 0; trial < 50; trial++) {
      const window = 1 + Math.floor(rand() * 5);
      const records = Array.from({ length: 1 + Math.floor(rand() * 20) }, (_, i) =>
        buildRecord({ id: `r${i}`, canonicalHash: rand() < 0.6 ? "h-skill" : "h-x", outcome: rand() < 0.7 ? "SUCCESS" : "FAILURE" }, skill, rand(), at(Math.floor(rand() * 10))),
      );
      let stats: unknown = {};
      for (const r of records) stats = applyRecord(stats, r, window);
      expect(stats).toEqual(recountStats(records, window));
    }
  });

  it("enqueues only runs with a hash, a non-empty query, a step and a timestamp", () => {
    const ok = { canonicalHash: "h", query: "Refund order", stepCount: 1, createdAt: at(0) };
    expect(shadowEligible(ok)).toBe(true);
    expect(shadowEligible({ ...ok, canonicalHash: null })).toBe(false);
    expect(shadowEligible({ ...ok, query: "" })).toBe(false);
    expect(shadowEligible({ ...ok, query: "   " })).toBe(false);
    expect(shadowEligible({ ...ok, stepCount: 0 })).toBe(false);
    expect(shadowEligible({ ...ok, createdAt: new Date(Number.NaN) })).toBe(false);
  });

  it("readiness: the reference's dict and reasons in order", () => {
    const stats = shadowStatsOf({ observations: 7, trajectory_matches: 6, trajectory_mismatches: 1, matched_successes: 6, matched_failures: 0 });
    const r = shadowReadiness(stats, DEFAULT_LEARNING_CONFIG);
    expect(r).toEqual({ ready: false, observations: 7, trajectory_match_rate: 6 / 7, matched_success_rate: 1, reasons: ["observations 7 < 10"] });
    expect(shadowReadiness(shadowStatsOf({}), DEFAULT_LEARNING_CONFIG).reasons).toEqual([
      "observations 0 < 10",
      "trajectory match rate 0.00 < 0.80",
      "matched success rate 0.00 < 0.80",
    ]);
  });
});
