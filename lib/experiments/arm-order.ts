// The order each case runs its arms in. A fixed order (baseline first, every case) lets order
// effects such as a warm-up pass for a treatment effect, so each case gets a row of a Williams
// design (a balanced Latin square, with its mirror image for an odd number of arms) over a
// seeded shuffle of the arms: case i takes row i, so over any number of cases divisible by the
// arm count each arm goes first, and takes every other place, equally often, and over a whole
// design each arm follows each other arm equally often. The shuffle is drawn with pure-rand from
// the experiment's bootstrap_seed, so the same seed, arms and cases give the same orders.
// The orders are stored on the cases at creation; the report compares them with the order the
// contexts were actually served in. Pure.
import { unsafeUniformIntDistribution, xoroshiro128plus } from "pure-rand";
import type { Arm } from "./scoring";

/**
 * The rows of a Williams design for k treatments (indices 0..k-1): k rows when k is even, 2k
 * (each row and its mirror) when k is odd. Every block of k consecutive rows is a Latin square.
 */
export function williamsDesign(k: number): number[][] {
  const first = [0];
  for (let j = 1, lo = 1, hi = k - 1; j < k; j++) first.push(j % 2 === 1 ? lo++ : hi--);
  const rows = Array.from({ length: k }, (_, r) => first.map((x) => (x + r) % k));
  return k % 2 === 0 ? rows : [...rows, ...rows.map((row) => [...row].reverse())];
}

/** A Fisher-Yates shuffle drawn from `seed`. */
function seededShuffle<T>(items: readonly T[], seed: number): T[] {
  const rng = xoroshiro128plus(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = unsafeUniformIntDistribution(0, i, rng);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Each case's arm order (arm names), case by case in their positions. */
export function counterbalancedOrders(arms: readonly string[], cases: number, seed: number): string[][] {
  const shuffled = seededShuffle(arms, seed);
  const design = williamsDesign(arms.length);
  return Array.from({ length: cases }, (_, i) => design[i % design.length].map((x) => shuffled[x]));
}

/** The arms in the order a case runs them: its stored order, or the declared one for cases stored without. */
export function caseArms(stored: readonly string[], arms: readonly Arm[]): Arm[] {
  if (stored.length === 0) return [...arms];
  const byName = new Map(arms.map((a) => [a.name, a]));
  return stored.map((name) => byName.get(name)!);
}

export type ArmOrderSummary = {
  counterbalanced: boolean;
  /** How many cases each arm goes first in, in the declared arm order. */
  first: { arm: string; cases: number }[];
  /** (case, repetition) pairs with every arm's context served, and of those, served in the case's order. */
  served: number;
  followed: number;
  statement: string;
};

export type ServedAt = { caseId: string; arm: string; repetition: number; contextServedAt: Date };

/**
 * How the arms were ordered: whether the cases carry counterbalanced orders, how often each arm
 * goes first, and whether the contexts were served in those orders (by their served times; a
 * context served again before its report counts at its last serving).
 */
export function armOrderSummary(declared: readonly string[], cases: { caseId: string; order: string[] }[], counterbalanced: boolean, seed: number, served: ServedAt[]): ArmOrderSummary {
  const first = declared.map((arm) => ({ arm, cases: cases.filter((c) => c.order[0] === arm).length }));
  // Served times per (repetition, case), arm by arm.
  const groups = new Map<string, { caseId: string; times: Map<string, number> }>();
  for (const s of served) {
    const key = `${s.repetition}\u0000${s.caseId}`;
    const group = groups.get(key) ?? { caseId: s.caseId, times: new Map<string, number>() };
    group.times.set(s.arm, s.contextServedAt.getTime());
    groups.set(key, group);
  }
  const orderOf = new Map(cases.map((c) => [c.caseId, c.order]));
  let complete = 0;
  let followed = 0;
  for (const { caseId, times } of groups.values()) {
    const order = orderOf.get(caseId);
    if (!order || times.size !== order.length) continue;
    complete++;
    const inOrder = order.map((arm) => times.get(arm)!);
    if (inOrder.every((t, i) => i === 0 || inOrder[i - 1] <= t)) followed++;
  }
  const firsts = first.map((f) => `${f.arm} ${f.cases}`).join(" · ");
  const servedText = complete ? `; ${followed} of ${complete} case repetitions had their contexts served in that order` : "";
  const statement = counterbalanced
    ? `Arms were counterbalanced: each case runs them in a seeded order (a balanced Latin square over arms shuffled with bootstrap_seed ${seed}); first in a case (of ${cases.length}): ${firsts}${servedText}.`
    : `Arms were not counterbalanced: this experiment predates counterbalancing and every case runs them in the declared order (${declared.join(" > ")}) so order effects such as a warm-up are not balanced${servedText}.`;
  return { counterbalanced, first, served: complete, followed, statement };
}
