// The 95 % Wilson score interval of a success rate: what the learning engine judges an active
// skill's recent runs against (./drift.ts), what the skill page reports around a class's
// success rate (../review/skill-impact.ts), and what the proving ground reports; and the normal
// quantile their intervals of a mean use.

export type Interval = { low: number; high: number };

/** The normal quantile of a two-sided 95 % interval. */
export const Z95 = 1.96;

/** The interval around a success rate `p` observed over `n` trials (n > 0), within [0, 1]. */
export function wilsonInterval(p: number, n: number): Interval {
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** The interval for k successes in n trials; null for none. */
export const wilson = (k: number, n: number): Interval | null => (n === 0 ? null : wilsonInterval(k / n, n));
