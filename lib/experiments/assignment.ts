// Which (case, arm, repetition) a request names, checked against the experiment: a case or arm
// outside it, or a repetition beyond its count, is bad input with a clear message.
import type { Db, Tx } from "../db/prisma";
import type { Experiment, ExperimentCase } from "../db/generated/client";
import { InvalidState, Validation } from "../errors";
import { agentDeleting } from "../learning/errors";
import { armsOf, statusName } from "./experiments";
import type { Arm } from "./scoring";

export type AssignmentInput = { caseId: string; arm: string; repetition: number };

/** Only draft and running experiments take contexts and reports. */
export function requireOpen(e: Experiment): void {
  if (e.status !== "DRAFT" && e.status !== "RUNNING") throw new InvalidState(`Experiment '${e.id}' is ${statusName(e)}; it takes no more runs.`);
}

export async function resolveAssignment(db: Db | Tx, e: Experiment, input: AssignmentInput): Promise<{ kase: ExperimentCase; arm: Arm }> {
  const arms = armsOf(e);
  const arm = arms.find((a) => a.name === input.arm);
  if (!arm) throw new Validation(`Arm '${input.arm}' is not in experiment '${e.id}' (its arms: ${arms.map((a) => a.name).join(", ")}).`, [{ path: "/arm", message: "not an arm of this experiment" }]);
  if (input.repetition > e.repetitions) {
    throw new Validation(`Experiment '${e.id}' has ${e.repetitions} repetition(s); ${input.repetition} is beyond them.`, [{ path: "/repetition", message: `must be at most ${e.repetitions}` }]);
  }
  const kase = await db.experimentCase.findUnique({ where: { experimentId_caseId: { experimentId: e.id, caseId: input.caseId } } });
  if (!kase) throw new Validation(`Case '${input.caseId}' is not in experiment '${e.id}'.`, [{ path: "/case_id", message: "not a case of this experiment" }]);
  const agent = await db.agent.findUnique({ where: { id: e.agentId }, select: { deletingAt: true } });
  if (agent?.deletingAt) throw agentDeleting(e.agentId);
  return { kase, arm };
}
