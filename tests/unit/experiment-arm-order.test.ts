// Counterbalanced arm orders and the ledger's case-content keys, pure: for any arm count (2–8,
// the experiments' limits), seed and number of cases divisible by the arm count, each arm goes
// first and takes every place equally often; over whole designs each arm follows each other arm
// equally often; the same seed gives the same orders. Content keys ignore case ids, users and
// spacing but not what counts as right. The report's summary of the served order.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { armOrderSummary, caseArms, counterbalancedOrders, williamsDesign } from "@/lib/experiments/arm-order";
import { caseContentKey, ledgerCaseId } from "@/lib/experiments/ledger";
import { DEFAULT_ARMS } from "@/lib/experiments/schemas";

const names = (k: number) => Array.from({ length: k }, (_, i) => `arm${i}`);
const count = <T,>(xs: T[], pred: (x: T) => boolean) => xs.filter(pred).length;

describe("counterbalanced arm orders", () => {
  it("puts each arm first, and in every place, equally often over a multiple of the arm count", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 8 }), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 0, max: 2 ** 31 - 1 }), (k, blocks, seed) => {
        const orders = counterbalancedOrders(names(k), k * blocks, seed);
        for (const o of orders) expect([...o].sort()).toEqual(names(k));
        for (const arm of names(k)) for (let place = 0; place < k; place++) expect(count(orders, (o) => o[place] === arm)).toBe(blocks);
        expect(counterbalancedOrders(names(k), k * blocks, seed)).toEqual(orders);
      }),
    );
  });

  it("balances which arm follows which over a whole design (k rows for even k, 2k for odd)", () => {
    for (let k = 2; k <= 8; k++) {
      const rows = williamsDesign(k);
      expect(rows).toHaveLength(k % 2 === 0 ? k : 2 * k);
      const follows = new Map<string, number>();
      for (const r of rows) for (let i = 1; i < k; i++) follows.set(`${r[i - 1]}>${r[i]}`, (follows.get(`${r[i - 1]}>${r[i]}`) ?? 0) + 1);
      expect(follows.size).toBe(k * (k - 1));
      expect(new Set(follows.values())).toEqual(new Set([k % 2 === 0 ? 1 : 2]));
    }
  });

  it("shuffles the arms with the seed: the seeds give more than one first arm", () => {
    const firsts = new Set(Array.from({ length: 20 }, (_, seed) => counterbalancedOrders(names(3), 1, seed)[0][0]));
    expect(firsts.size).toBe(3);
  });

  it("keeps the declared order for cases stored without one", () => {
    expect(caseArms([], DEFAULT_ARMS)).toEqual(DEFAULT_ARMS);
    expect(caseArms(["skill_developer", "baseline", "skill_user"], DEFAULT_ARMS).map((a) => a.name)).toEqual(["skill_developer", "baseline", "skill_user"]);
  });

  it("summarises the orders and whether the contexts were served in them", () => {
    const at = (ms: number) => new Date(1_000_000 + ms);
    const cases = [
      { caseId: "c1", order: ["a", "b"] },
      { caseId: "c2", order: ["b", "a"] },
    ];
    const served = [
      { caseId: "c1", arm: "a", repetition: 1, contextServedAt: at(1) },
      { caseId: "c1", arm: "b", repetition: 1, contextServedAt: at(2) },
      { caseId: "c2", arm: "a", repetition: 1, contextServedAt: at(3) },
      { caseId: "c2", arm: "b", repetition: 1, contextServedAt: at(4) },
      { caseId: "c2", arm: "b", repetition: 2, contextServedAt: at(5) },
    ];
    const s = armOrderSummary(["a", "b"], cases, true, 7, served);
    expect(s).toMatchObject({ counterbalanced: true, first: [{ arm: "a", cases: 1 }, { arm: "b", cases: 1 }], served: 2, followed: 1 });
    expect(s.statement).toBe(
      "Arms were counterbalanced: each case runs them in a seeded order (a balanced Latin square over arms shuffled with bootstrap_seed 7); first in a case (of 2): a 1 · b 1; 1 of 2 case repetitions had their contexts served in that order.",
    );
    expect(armOrderSummary(["a", "b"], cases, false, 7, []).statement).toMatch(/^Arms were not counterbalanced: .*declared order \(a > b\)/);
  });
});

describe("ledger case keys", () => {
  const c = { request: "Refund order B2001", expected_hash: "h1", expected_answer: "Refunded.", answer_match: "normalized" as const };

  it("keys a case by its content and the arm mode", () => {
    expect(caseContentKey(c)).toMatch(/^[0-9a-f]{64}$/);
    expect(caseContentKey({ ...c, request: "  Refund   order\tB2001 " })).toBe(caseContentKey(c));
    for (const other of [{ request: "Refund order B2002" }, { expected_hash: null }, { expected_answer: "Refunded" }, { answer_match: "exact" as const }]) {
      expect(caseContentKey({ ...c, ...other })).not.toBe(caseContentKey(c));
    }
    expect(ledgerCaseId(c, "skill_user")).toBe(`experiment-case:${caseContentKey(c)}:skill_user`);
    expect(ledgerCaseId(c, "skill_developer")).not.toBe(ledgerCaseId(c, "skill_user"));
  });
});
