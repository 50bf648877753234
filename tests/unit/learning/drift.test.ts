import { describe, expect, it } from "vitest";
import { applyOutcomes, deviationFlag, driftReason, isDeviationFlag, judgedAgainst, vouchedRate, type MonitorState } from "@/lib/learning/monitor/drift";
import { DEFAULT_LEARNING_CONFIG } from "@/lib/learning/agents/config";

const cfg = { ...DEFAULT_LEARNING_CONFIG, demotion_success_delta: 0.2, drift_window_activations: 10, min_activations_before_drift_check: 5 };
const state = (outcomes: boolean[], over: Partial<MonitorState> = {}): MonitorState => ({
  activations: outcomes.length,
  successes: outcomes.filter(Boolean).length,
  failures: outcomes.filter((o) => !o).length,
  deviations: 0,
  recentOutcomes: outcomes,
  ...over,
});
const tenWith = (ok: number) => Array.from({ length: 10 }, (_, i) => i < ok);
const now = new Date("2026-11-30T00:00:00Z");

describe("drift demotion", () => {
  it("does not demote at exactly the boundary (0.7 vs 0.9 − 0.2)", () => {
    expect(driftReason(state(tenWith(7)), 0.9, cfg)).toBeNull();
  });
  it("demotes just below it, with the reference reason", () => {
    expect(driftReason(state(tenWith(6)), 0.9, cfg)).toBe("drift: rolling 0.60 vs baseline 0.90");
  });
  it("judges a baseline by the rate its runs vouch for (the lower end of its 95 % Wilson interval)", () => {
    expect(vouchedRate(1, 5)).toBeCloseTo(0.566, 3);
    expect(vouchedRate(0.9, 1000)).toBeCloseTo(0.880, 3);
    expect(vouchedRate(0.9, null)).toBe(0.9);
    // 5 of 5 is no evidence of a procedure that never fails: three noisy labels in ten do not demote…
    expect(driftReason(state(tenWith(7)), 1, cfg)).toBe("drift: rolling 0.70 vs baseline 1.00");
    expect(driftReason(state(tenWith(7)), 1, cfg, 5)).toBeNull();
    // …a procedure that stopped working does, and the reason names the frozen baseline.
    expect(driftReason(state(tenWith(3)), 1, cfg, 5)).toBe("drift: rolling 0.30 vs baseline 1.00");
    const r = applyOutcomes(state([]), Array.from({ length: 10 }, (_, i) => ({ success: i < 7, deviated: false })), 1, cfg, now, 5);
    expect(r.demotionReason).toBeNull();
  });
  it("judges an imported skill (no class, no baseline) on every run against the rate a class needs", () => {
    const imported = judgedAgainst({ executions: 0, success_rate: null }, true, cfg);
    expect(imported).toEqual({ rate: cfg.min_success_rate, executions: null, classless: true });
    // A wrong import: its runs fail, and it is demoted like a drifted skill…
    const runs = Array.from({ length: 5 }, () => ({ success: false, deviated: false }));
    expect(applyOutcomes(state([]), runs, imported.rate, cfg, now, imported.executions).demotionReason).toBe("drift: rolling 0.00 vs baseline 0.80");
    // …a distilled skill keeps its frozen baseline and its class.
    expect(judgedAgainst({ executions: 12, success_rate: 0.9 }, false, cfg)).toEqual({ rate: 0.9, executions: 12, classless: false });
    expect(judgedAgainst(null, false, cfg)).toEqual({ rate: null, executions: null, classless: false });
  });
  it("waits for the grace period and needs a baseline", () => {
    expect(driftReason(state([false, false, false, false]), 1, cfg)).toBeNull();
    expect(driftReason(state([false, false, false, false, false]), 1, cfg)).toContain("drift");
    expect(driftReason(state(tenWith(0)), null, cfg)).toBeNull();
  });
  it("counts activations, outcomes, deviations and keeps the rolling window bounded", () => {
    const r = applyOutcomes(state(tenWith(10)), [{ success: true, deviated: true }, { success: false, deviated: false }], 0.9, cfg, now);
    expect(r.state).toMatchObject({ activations: 12, successes: 11, failures: 1, deviations: 1 });
    expect(r.state.recentOutcomes).toHaveLength(10);
    // The deviated run is not in the window: only the run that followed the procedure entered it.
    expect(r.state.recentOutcomes.slice(-2)).toEqual([true, false]);
    expect(r.state.recentOutcomes.filter((o) => !o)).toHaveLength(1);
    expect(r.demotionReason).toBeNull();
    expect(r.lastActivatedAt).toEqual(now);
  });
  it("stops at the demoting run: later runs of a batch are not attributed", () => {
    const runs = Array.from({ length: 8 }, () => ({ success: false, deviated: false }));
    const r = applyOutcomes(state([]), runs, 1, cfg, now);
    expect(r.applied).toBe(5);
    expect(r.state.activations).toBe(5);
    expect(r.demotionReason).toBe("drift: rolling 0.00 vs baseline 1.00");
  });
});

describe("drift judged on the procedure", () => {
  it("runs that took another path never enter the window nor demote, however many fail", () => {
    const others = Array.from({ length: 20 }, () => ({ success: false, deviated: true }));
    const r = applyOutcomes(state(tenWith(10)), others, 1, cfg, now);
    expect(r.demotionReason).toBeNull();
    expect(r.applied).toBe(20);
    expect(r.state).toMatchObject({ activations: 30, failures: 20, deviations: 20 });
    expect(r.state.recentOutcomes).toEqual(tenWith(10));
  });
  it("the grace period counts only runs that followed the procedure", () => {
    const deviated = state([], { activations: 10, deviations: 10 });
    // One failed run of the procedure after ten deviations: 1 followed activation < 5, no demotion.
    expect(applyOutcomes(deviated, [{ success: false, deviated: false }], 1, cfg, now).demotionReason).toBeNull();
    const five = Array.from({ length: 5 }, () => ({ success: false, deviated: false }));
    expect(applyOutcomes(deviated, five, 1, cfg, now).demotionReason).toBe("drift: rolling 0.00 vs baseline 1.00");
  });
});

describe("deviation review flag", () => {
  it("flags more than half deviations after the grace period only", () => {
    expect(deviationFlag({ activations: 6, deviations: 4 }, cfg)).toContain("applicability likely miscalibrated");
    expect(deviationFlag({ activations: 6, deviations: 3 }, cfg)).toBeNull();
    expect(deviationFlag({ activations: 4, deviations: 4 }, cfg)).toBeNull();
  });
  it("is recognized among other review flags", () => {
    expect(isDeviationFlag(deviationFlag({ activations: 6, deviations: 4 }, cfg)!)).toBe(true);
    expect(isDeviationFlag("qualification suspended")).toBe(false);
  });
});
