// What a distiller says about the version a new one replaces, written from that version's
// recorded outcomes only. A reviewer's free-text reason (demotion, rejection) is recorded in the
// audit log and never reaches a prompt or a SKILL.md, which an agent reads once activated.

export type PreviousVersion = {
  version: number;
  status: "demoted" | "deprecated" | "rejected";
  /** Outcomes counted while it was active (zero for a version never activated). */
  activations: number;
  successes: number;
  failures: number;
  deviations: number;
};

const runs = (n: number) => `${n.toLocaleString("en")} ${n === 1 ? "run" : "runs"}`;

/** One sentence of evidence, e.g. "Version 2 was demoted after 40 runs with it: 22 succeeded, 18 failed, 3 took another path." */
export function previousVersionText(p: PreviousVersion): string {
  const counted = p.successes + p.failures;
  if (p.activations === 0 && counted === 0) return `Version ${p.version} was ${p.status} before any run used it.`;
  return (
    `Version ${p.version} was ${p.status} after ${runs(Math.max(p.activations, counted))} with it: ` +
    `${p.successes.toLocaleString("en")} succeeded, ${p.failures.toLocaleString("en")} failed, ${p.deviations.toLocaleString("en")} took another path.`
  );
}
