// Qualification gates activation when the agent opts in (require_qualification): a skill may go
// ACTIVE only when its paired-evaluation procedure in the evidence ledger is ACTIVE. One wording
// for the activation operation's refusal and the activation dialog's explanation.
import type { LearningConfig } from "../agents/config";
import type { ProcedureState } from "../../ledger/types";

type Qualification = { procedureId: string; state: ProcedureState; n: number; trials: number } | null;

/** Why activation is refused, or null when the gate is off or passed. */
export function qualificationBlocker(config: Pick<LearningConfig, "require_qualification">, q: Qualification): string | null {
  if (!config.require_qualification) return null;
  const rule = "This agent requires paired-evaluation qualification before activation";
  if (!q) return `${rule}; no qualification has been started for this skill version.`;
  if (q.state === "active") return null;
  const where = q.state === "candidate" ? `still qualifying (${q.n} of ${q.trials} cases)` : q.state;
  return `${rule}; its ledger procedure ${q.procedureId} is ${where}, not active.`;
}
