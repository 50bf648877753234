// Complete an experiment (agent API with an admin key, console): every assignment reported and
// the seed's three checks passing, then, in one transaction under the experiment's row lock
// (the lock a cancel takes), each skill-arm case recorded as a paired evaluation in the ledger
// (../ledger.ts) unless the ledger already counted that case content and arm (with the skill's
// demotion when one suspends the procedure), the status, the ledger outcome and the audit row.
// So a cancel either comes first (nothing reaches the ledger) or finds the experiment completed.
import type { Db } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { InvalidState } from "../../errors";
import { experimentPairs, ledgerTarget, recordExperimentPairs } from "../ledger";
import { experimentReport, type ExperimentReport, type LedgerOutcome } from "../report";
import { loadExperiment, statusName } from "../experiments";

/** A completion records every pair in its transaction; each waits at most the ledger's lock timeout (30 s). */
const COMPLETION_TRANSACTION_MS = 120_000;

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

  const ledger = await db.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ status: string }[]>`SELECT status::text FROM experiments WHERE id = ${e.id} FOR UPDATE`;
    if (row?.status !== "RUNNING") throw new InvalidState(`Experiment '${e.id}' is no longer running.`);
    const skill = await tx.skill.findUniqueOrThrow({ where: { id: e.skillId } });
    const agent = await tx.agent.findUniqueOrThrow({ where: { id: e.agentId }, select: { id: true, tools: true, learning: true } });
    const ledger = await recordExperimentPairs(tx, await ledgerTarget(tx, e, skill, agent), experimentPairs(before));
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
    return ledger;
  }, { timeout: COMPLETION_TRANSACTION_MS });
  return { report: await experimentReport(db, e.id), ledger };
}
