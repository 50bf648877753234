// The ledger's arithmetic and state machine as pure functions, with the reference
// implementation's numbers.
import { describe, expect, it } from "vitest";
import { applyEvaluation, clampBound, failedGates, hoeffdingRadius } from "@/lib/ledger/arithmetic";
import type { LedgerPolicy, PairedEvaluation, ProcedureAggregates } from "@/lib/ledger/types";

const policy: LedgerPolicy = {
  qualification_trials: 32,
  confidence_delta: 0.01,
  min_improvement: 0.05,
  min_candidate_utility: 0.7,
  max_cost_units: 10_000,
  max_latency_ms: 60_000,
  max_failure_streak: 3,
  evaluator_id: "test-harness",
  evaluation_contract: "held-out-suite-v1",
};
const fresh: ProcedureAggregates = {
  state: "candidate",
  qualification_count: 0,
  mean_improvement: 0,
  mean_candidate_utility: 0,
  budget_violations: 0,
  lower_improvement_bound: null,
  monitoring_count: 0,
  failure_streak: 0,
};
const ev = (k: number, over: Partial<PairedEvaluation> = {}): PairedEvaluation => ({
  case_id: `case-${k}`,
  phase: "qualification",
  evaluator_id: "test-harness",
  evaluation_contract: "held-out-suite-v1",
  evidence_ref: `trace:held-out-${k}`,
  baseline_utility: 0,
  candidate_utility: 1,
  candidate_cost_units: 10,
  candidate_latency_ms: 100,
  ...over,
});

function run(p: LedgerPolicy, cases: PairedEvaluation[], start = fresh) {
  let agg = start;
  const transitions = [];
  for (const c of cases) {
    const r = applyEvaluation(agg, p, c);
    agg = r.next;
    if (r.transition) transitions.push(r.transition);
  }
  return { agg, transitions };
}

describe("ledger arithmetic", () => {
  it("computes the Hoeffding radius of the reference table", () => {
    expect(Math.abs(hoeffdingRadius(0.01, 2) - 2.145966026289347)).toBeLessThan(1e-12);
    expect(Math.abs(hoeffdingRadius(0.01, 32) - 0.5364915065723368)).toBeLessThan(1e-12);
    expect(Math.abs(hoeffdingRadius(0.01, 128) - 0.2682457532861684)).toBeLessThan(1e-12);
  });

  it("uses the incremental running mean, bit for bit (8 × −1 then 24 × +1)", () => {
    const cases = Array.from({ length: 32 }, (_, k) => ev(k, k < 8 ? { baseline_utility: 1, candidate_utility: 0 } : {}));
    const { agg, transitions } = run(policy, cases);
    expect(agg.mean_improvement).toBe(0.49999999999999994);
    expect(Math.abs(agg.lower_improvement_bound! - -0.0364915065723368)).toBeLessThan(1e-12);
    expect(agg.state).toBe("rejected");
    expect(transitions).toHaveLength(1);
  });

  it("decides only at the fixed trial count and clamps the stored bound at −1", () => {
    const p2 = { ...policy, qualification_trials: 2 };
    const first = applyEvaluation(fresh, p2, ev(0));
    expect(first.next.state).toBe("candidate");
    expect(first.next.lower_improvement_bound).toBeNull();
    const second = applyEvaluation(first.next, p2, ev(1));
    expect(second.next.lower_improvement_bound).toBe(-1);
    expect(Math.abs(1 - hoeffdingRadius(0.01, 2) - -1.1459660262893472)).toBeLessThan(1e-12);
    expect(second.next.state).toBe("rejected");
    expect(clampBound(-1.5)).toBe(-1);
  });

  it("activates perfect results at n = 32 with bound 0.4635084934276632", () => {
    const { agg, transitions } = run(policy, Array.from({ length: 32 }, (_, k) => ev(k)));
    expect(agg.state).toBe("active");
    expect(Math.abs(agg.lower_improvement_bound! - 0.4635084934276632)).toBeLessThan(1e-12);
    expect(transitions[0]).toMatchObject({ from: "candidate", to: "active" });
  });

  it("counts equal cost and latency as within budget and one unit over as a violation", () => {
    const atLimit = run(policy, Array.from({ length: 32 }, (_, k) => ev(k, { candidate_cost_units: 10_000, candidate_latency_ms: 60_000 })));
    expect(atLimit.agg).toMatchObject({ state: "active", budget_violations: 0 });
    const over = run(policy, Array.from({ length: 32 }, (_, k) => ev(k, { candidate_cost_units: k === 5 ? 10_001 : 10 })));
    expect(over.agg).toMatchObject({ state: "rejected", budget_violations: 1 });
    expect(failedGates({ ...over.agg, proposal: { policy } })).toEqual(["budget"]);
  });

  it("names every failed gate", () => {
    const low = run(policy, Array.from({ length: 32 }, (_, k) => ev(k, { candidate_utility: 0.65 })));
    expect(low.agg.state).toBe("rejected");
    expect(low.agg.lower_improvement_bound!).toBeGreaterThan(0.05);
    expect(failedGates({ ...low.agg, proposal: { policy } })).toEqual(["candidate_utility"]);
    const none = run(policy, Array.from({ length: 32 }, (_, k) => ev(k, { baseline_utility: 1 })));
    expect(failedGates({ ...none.agg, proposal: { policy } })).toEqual(["improvement_bound"]);
  });

  it("monitoring: ties are good, below the floor is bad, a success resets the streak, the limit suspends", () => {
    const active: ProcedureAggregates = { ...fresh, state: "active", qualification_count: 32, lower_improvement_bound: 0.46 };
    const m = (k: number, over: Partial<PairedEvaluation>) => ev(k, { phase: "monitoring", ...over });
    const tie = applyEvaluation({ ...active, failure_streak: 2 }, policy, m(1, { baseline_utility: 0.7, candidate_utility: 0.7 }));
    expect(tie.next.failure_streak).toBe(0);
    const belowFloor = applyEvaluation(active, policy, m(2, { baseline_utility: 0, candidate_utility: 0.69 }));
    expect(belowFloor.next.failure_streak).toBe(1);
    const { agg, transitions } = run(
      policy,
      [m(32, { candidate_latency_ms: 60_001 }), m(33, { candidate_latency_ms: 60_001 }), m(34, {}), m(35, { candidate_latency_ms: 60_001 }), m(36, { candidate_latency_ms: 60_001 }), m(37, { candidate_latency_ms: 60_001 })],
      active,
    );
    expect(agg).toMatchObject({ state: "suspended", failure_streak: 3, monitoring_count: 6, qualification_count: 32 });
    expect(transitions).toEqual([expect.objectContaining({ from: "active", to: "suspended" })]);
    const one = applyEvaluation(active, { ...policy, max_failure_streak: 1 }, m(1, { candidate_utility: 0 }));
    expect(one.next.state).toBe("suspended");
  });
});
