// Cancel a draft or running experiment: it takes no more contexts or reports; its runs stay
// for the report, and nothing goes to the ledger.
import type { Db } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { InvalidState, NotFound } from "../../errors";
import { experimentProgress, experimentView, type ExperimentView } from "../experiments";
import type { FinishExperimentInput } from "./complete-experiment";

export async function cancelExperiment(db: Db, input: FinishExperimentInput, audit: AuditContext): Promise<ExperimentView> {
  return db.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ status: string }[]>`SELECT status::text FROM experiments WHERE id = ${input.experimentId} FOR UPDATE`;
    if (!row) throw new NotFound(`Experiment '${input.experimentId}'`);
    if (row.status !== "DRAFT" && row.status !== "RUNNING") throw new InvalidState(`Experiment '${input.experimentId}' is ${row.status.toLowerCase()}; it cannot be cancelled.`);
    const e = await tx.experiment.update({ where: { id: input.experimentId }, data: { status: "CANCELLED" } });
    const progress = await experimentProgress(tx, e);
    await recordAudit(tx, audit, {
      type: "experiment.cancelled",
      target: { type: "experiment", id: e.id },
      data: { agent_id: e.agentId, skill_id: e.skillId, reported: progress.reported, reason: input.reason ?? null },
    });
    return experimentView(e, progress);
  });
}
