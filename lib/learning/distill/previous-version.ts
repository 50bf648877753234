// What a distiller says about the version a new one replaces, written from that version's
// recorded outcomes only. A reviewer's free-text reason (demotion, rejection) is recorded in the
// audit log and never reaches a prompt or a SKILL.md, which an agent reads once activated.

import { formatNumber, pluralise } from "../../text/format";

export type PreviousVersion = {
  version: number;
  status: "demoted" | "deprecated" | "rejected";
  /** Outcomes counted while it was active (zero for a version never activated). */
  activations: number;
  successes: number;
  failures: number;
  deviations: number;
};


/** One sentence of evidence, e.g. "Version 2 was demoted after 40 runs with it: 22 succeeded, 18 failed, 3 took another path." */
export function previousVersionText(p: PreviousVersion): string {
  const counted = p.successes + p.failures;
  if (p.activations === 0 && counted === 0) return `Version ${p.version} was ${p.status} before any run used it.`;
  return (
    `Version ${p.version} was ${p.status} after ${pluralise(Math.max(p.activations, counted), "run")} with it: ` +
    `${formatNumber(p.successes)} succeeded, ${formatNumber(p.failures)} failed, ${formatNumber(p.deviations)} took another path.`
  );
}
