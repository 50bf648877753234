import { describe, expect, it } from "vitest";
import { DEFAULT_LEARNING_CONFIG } from "@/lib/learning/config";
import { evaluateGates, rankScore, type GateStats } from "@/lib/learning/gates";

const now = new Date("2026-11-30T12:00:00Z");
const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000);
const stats = (over: Partial<GateStats> = {}): GateStats => ({
  executions: 5,
  successes: 5,
  distinctQueries: 3,
  firstSeen: daysAgo(3),
  lastSeen: daysAgo(0),
  ...over,
});
const gate = (s: GateStats, covered = false) => evaluateGates(s, DEFAULT_LEARNING_CONFIG, { covered, now });

describe("promotion gates", () => {
  it("passes all gates with the reference detail strings", () => {
    const v = gate(stats());
    expect(v.eligible).toBe(true);
    expect(v.reason).toBeNull();
    expect(v.gates.map((g) => [g.name, g.passed, g.detail])).toEqual([
      ["coverage", true, "no live skill"],
      ["executions", true, "5 / 5 runs"],
      ["success_rate", true, "100% (need 80%)"],
      ["distinct_queries", true, "3 distinct (need 2)"],
      ["recency", true, "last seen 0d ago (within 30d)"],
    ]);
  });

  it("blocks on each gate independently, with the engine's reason", () => {
    expect(gate(stats({ executions: 4, successes: 4 })).reason).toBe("executions 4 < 5");
    expect(gate(stats({ executions: 100, successes: 79 })).reason).toBe("success_rate 0.79 < 0.8");
    expect(gate(stats({ distinctQueries: 1 })).reason).toBe("distinct_queries 1 < 2");
    expect(gate(stats({ lastSeen: daysAgo(45) })).reason).toBe("stale: last seen 45d ago");
    for (const s of [stats({ executions: 4, successes: 4 }), stats({ executions: 100, successes: 79 }), stats({ distinctQueries: 1 }), stats({ lastSeen: daysAgo(45) })]) {
      const v = gate(s);
      expect(v.eligible).toBe(false);
      expect(v.gates.filter((g) => !g.passed)).toHaveLength(1);
    }
  });

  it("a live skill blocks the class and is reported first", () => {
    const v = gate(stats({ executions: 1, successes: 1 }), true);
    expect(v.eligible).toBe(false);
    expect(v.reason).toBe("already covered by a live skill");
    expect(v.gates[0]).toMatchObject({ name: "coverage", passed: false });
  });

  it("reports all four unmet gates and a class without timestamps", () => {
    const v = gate({ executions: 2, successes: 1, distinctQueries: 1, firstSeen: null, lastSeen: null });
    expect(v.gates.filter((g) => !g.passed).map((g) => g.name)).toEqual(["executions", "success_rate", "distinct_queries", "recency"]);
    expect(v.gates[4].detail).toBe("no timestamps");
    expect(v.gates[2].detail).toBe("50% (need 80%)");
  });

  it("success rate at exactly the minimum passes; the age boundary is whole days", () => {
    expect(gate(stats({ executions: 10, successes: 8 })).eligible).toBe(true);
    expect(gate(stats({ lastSeen: daysAgo(30.9) })).eligible).toBe(true);
    expect(gate(stats({ lastSeen: daysAgo(31) })).eligible).toBe(false);
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
