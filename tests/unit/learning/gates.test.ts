import { describe, expect, it } from "vitest";
import { DEFAULT_LEARNING_CONFIG } from "@/lib/learning/agents/config";
import { GATE_BIT, evaluateGates, rankScore, type GateStats } from "@/lib/learning/classes/gates";

const now = new Date("2026-11-30T12:00:00Z");
const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000);
const stats = (over: Partial<GateStats> = {}): GateStats => ({
  executions: 5,
  successes: 5,
  distinctQueries: 3,
  distinctUsers: 0,
  firstSeen: daysAgo(3),
  lastSeen: daysAgo(0),
  ...over,
});
const gate = (s: GateStats, failures = 0) => evaluateGates(s, DEFAULT_LEARNING_CONFIG, { failures, now });

// Which gates pass is class_gate_failures' decision (tests/integration/class-gates.test.ts
// holds its boundaries); here: each failed bit is reported on its own gate, in the engine's words.
describe("promotion gates' verdict", () => {
  it("passes all gates with the reference detail strings", () => {
    const v = gate(stats());
    expect(v.eligible).toBe(true);
    expect(v.reason).toBeNull();
    expect(v.gates.map((g) => [g.name, g.passed, g.detail])).toEqual([
      ["coverage", true, "no live skill"],
      ["executions", true, "5 / 5 runs"],
      ["success_rate", true, "100% (need 80%)"],
      ["distinct_queries", true, "3 distinct (need 2)"],
      ["distinct_users", true, "no account on the successful runs (not gated)"],
      ["recency", true, "last seen 0d ago (within 30d)"],
    ]);
  });

  it("blocks on each failed bit alone, with the engine's reason", () => {
    const cases: [GateStats, number, string][] = [
      [stats({ executions: 4, successes: 4 }), GATE_BIT.executions, "executions 4 < 5"],
      [stats({ executions: 100, successes: 79 }), GATE_BIT.success_rate, "success_rate 0.79 < 0.8"],
      [stats({ distinctQueries: 1 }), GATE_BIT.distinct_queries, "distinct_queries 1 < 2"],
      [stats({ lastSeen: daysAgo(45) }), GATE_BIT.recency, "stale: last seen 45d ago"],
      [stats({ distinctUsers: 1 }), GATE_BIT.distinct_users, "distinct_users 1 < 3"],
    ];
    for (const [s, bit, reason] of cases) {
      const v = gate(s, bit);
      expect(v.eligible).toBe(false);
      expect(v.reason).toBe(reason);
      expect(v.gates.filter((g) => !g.passed).map((g) => GATE_BIT[g.name])).toEqual([bit]);
    }
  });

  it("a live skill blocks the class and is reported first", () => {
    const v = gate(stats({ executions: 1, successes: 1 }), GATE_BIT.coverage | GATE_BIT.executions);
    expect(v.eligible).toBe(false);
    expect(v.reason).toBe("already covered by a live skill");
    expect(v.gates[0]).toMatchObject({ name: "coverage", passed: false, detail: "already covered by a live skill" });
  });

  it("reports all four unmet gates and a class without timestamps", () => {
    const v = gate({ executions: 2, successes: 1, distinctQueries: 1, distinctUsers: 0, firstSeen: null, lastSeen: null }, 2 | 4 | 8 | 16);
    expect(v.gates.filter((g) => !g.passed).map((g) => g.name)).toEqual(["executions", "success_rate", "distinct_queries", "recency"]);
    expect(v.gates[5]).toMatchObject({ detail: "no timestamps", reason: "no timestamps on runs" });
    expect(v.gates[2].detail).toBe("50% (need 80%)");
    expect(v.reason).toBe("executions 2 < 5");
  });

  it("words a retirement window and a class without runs", () => {
    const v = evaluateGates(stats({ executions: 0, successes: 0 }), DEFAULT_LEARNING_CONFIG, { failures: 2 | 4, since: daysAgo(1), now });
    expect(v.gates[1].detail).toBe("0 / 5 runs since retirement");
    expect(v.gates[2].detail).toBe("— (need 80%)");
  });
});

describe("the distinct-accounts gate", () => {
  const user = { ...DEFAULT_LEARNING_CONFIG, learning_scope: "user" as const };
  const distinct = (s: GateStats, config = DEFAULT_LEARNING_CONFIG, failures = 0) =>
    evaluateGates(s, config, { failures, now }).gates.find((g) => g.name === "distinct_users")!;

  it("counts the accounts against min_distinct_users under the agent-wide scope", () => {
    expect(distinct(stats({ distinctUsers: 8 }))).toEqual({ name: "distinct_users", passed: true, detail: "8 / 3 distinct accounts" });
    expect(distinct(stats({ distinctUsers: 2 }), { ...DEFAULT_LEARNING_CONFIG, min_distinct_users: 5 }, GATE_BIT.distinct_users)).toEqual({
      name: "distinct_users",
      passed: false,
      detail: "2 / 5 distinct accounts",
      reason: "distinct_users 2 < 5",
    });
  });

  it("does not apply to runs without accounts, nor under the per-account scope", () => {
    expect(distinct(stats({ distinctUsers: 0 })).detail).toBe("no account on the successful runs (not gated)");
    expect(distinct(stats({ distinctUsers: 1 }), user)).toEqual({ name: "distinct_users", passed: true, detail: "1 account (per-account scope: not gated)" });
  });

  it("is ordered after distinct queries: one account's repeated procedure names it first", () => {
    const v = gate(stats({ executions: 8, successes: 8, distinctQueries: 8, distinctUsers: 1 }), GATE_BIT.distinct_users);
    expect(v.gates.map((g) => g.name)).toEqual(["coverage", "executions", "success_rate", "distinct_queries", "distinct_users", "recency"]);
    expect(v.reason).toBe("distinct_users 1 < 3");
  });
});

describe("ranking score", () => {
  it("is success_rate × ln(1+executions) × 0.5^(days/halflife)", () => {
    expect(rankScore(stats({ executions: 10, successes: 9, lastSeen: daysAgo(14) }), DEFAULT_LEARNING_CONFIG, now)).toBeCloseTo(0.9 * Math.log(11) * 0.5, 10);
  });
  it("is higher for fresher and for more reliable classes", () => {
    const cfg = DEFAULT_LEARNING_CONFIG;
    expect(rankScore(stats({ lastSeen: daysAgo(1) }), cfg, now)).toBeGreaterThan(rankScore(stats({ lastSeen: daysAgo(5) }), cfg, now));
    expect(rankScore(stats({ executions: 10, successes: 10 }), cfg, now)).toBeGreaterThan(rankScore(stats({ executions: 10, successes: 9 }), cfg, now));
  });
});
