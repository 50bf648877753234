// Complete an experiment (agent API with an admin key, console): every assignment reported and
// the seed's three checks passing, then each skill-arm case recorded as a paired evaluation in
// the ledger (../ledger.ts) unless the ledger already counted that case content and arm, then
// the status, the ledger outcome and the audit row in one transaction. Each ledger evaluation
// commits in its own transaction (with the skill's demotion when it suspends the procedure),
// outside that one; they are keyed by case content, so a completion that failed after them can
// simply be repeated (its pairs then read as already counted).
import type { Db } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { InvalidState } from "../../errors";
import { experimentPairs, ledgerTarget, recordExperimentPairs } from "../ledger";
import { experimentReport, type ExperimentReport, type LedgerOutcome } from "../report";
import { loadExperiment, statusName } from "../experiments";

export type FinishExperimentInput = { experimentId: string; reason?: string };

function requireComplete(report: ExperimentReport): void {
  const { expected, reported } = report.progress;
  if (reported < expected) throw new InvalidState(`${reported} of ${expected} runs are reported; report every (case, arm, repetition) before completing.`);
  const failing = report.checks.filter((c) => c.status !== "pass");
  if (failing.length) throw new InvalidState(`The seed's checks do not hold: ${failing.map((c) => `${c.label} (${c.status}: ${c.evidence})`).join("; ")}.`);
}

export async function completeExperiment(db: Db, input: FinishExperimentInput, audit: AuditContext): Promise<{ report: ExperimentReport; ledger: LedgerOutcome }> {
  const e = await loadExperiment(db, input.experimentId);
  if (e.status !== "RUNNING") throw new InvalidState(`Experiment '${e.id}' is ${statusName(e)}; only a running experiment can be completed.`);
  const before = await experimentReport(db, e.id);
  requireComplete(before);

  const skill = await db.skill.findUniqueOrThrow({ where: { id: e.skillId } });
  const agent = await db.agent.findUniqueOrThrow({ where: { id: e.agentId }, select: { id: true, tools: true, learning: true } });
  const ledger = await recordExperimentPairs(db, await ledgerTarget(db, e, skill, agent), experimentPairs(before));

  await db.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ status: string }[]>`SELECT status::text FROM experiments WHERE id = ${e.id} FOR UPDATE`;
    if (row?.status !== "RUNNING") throw new InvalidState(`Experiment '${e.id}' is no longer running.`);
    await tx.experiment.update({ where: { id: e.id }, data: { status: "COMPLETED", completedAt: new Date(), ledgerOutcome: ledger } });
    await recordAudit(tx, audit, {
      type: "experiment.completed",
      target: { type: "experiment", id: e.id },
      data: {
        agent_id: e.agentId,
        skill_id: e.skillId,
        runs: before.progress.reported,
        checks: Object.fromEntries(before.checks.map((c) => [c.key, c.status])),
        ledger: { procedure_id: ledger.procedure_id, recorded: ledger.recorded, already_counted: ledger.already_counted, skipped: ledger.skipped },
        reason: input.reason ?? null,
      },
    });
  });
  return { report: await experimentReport(db, e.id), ledger };
}
