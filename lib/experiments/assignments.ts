// GET /api/v1/experiments/{id}/assignments: the (case, arm, repetition) work not yet reported,
// repetition by repetition and case by case with every arm of a case together, so a partial
// run still compares arms on the same cases; a case's arms come in its counterbalanced order
// (./arm-order.ts). Empty once the experiment is no longer open.
import type { Db } from "../db/prisma";
import { caseArms } from "./arm-order";
import { armsOf, loadExperiment, statusName } from "./experiments";

export async function nextAssignments(db: Db, experimentId: string, limit: number) {
  const e = await loadExperiment(db, experimentId);
  const open = e.status === "DRAFT" || e.status === "RUNNING";
  const [cases, reported] = await Promise.all([
    db.experimentCase.findMany({ where: { experimentId }, orderBy: { position: "asc" }, select: { caseId: true, request: true, userId: true, armOrder: true } }),
    db.experimentRun.findMany({ where: { experimentId, reportedAt: { not: null } }, select: { caseId: true, arm: true, repetition: true } }),
  ]);
  const done = new Set(reported.map((r) => `${r.repetition}\u0000${r.caseId}\u0000${r.arm}`));
  const pending: { case_id: string; arm: string; mode: string; repetition: number; request: string; user_id: string | null }[] = [];
  let remaining = 0;
  const arms = armsOf(e);
  for (let rep = 1; open && rep <= e.repetitions; rep++) {
    for (const c of cases) {
      for (const arm of caseArms(c.armOrder, arms)) {
        if (done.has(`${rep}\u0000${c.caseId}\u0000${arm.name}`)) continue;
        remaining++;
        if (pending.length < limit) pending.push({ case_id: c.caseId, arm: arm.name, mode: arm.mode, repetition: rep, request: c.request, user_id: c.userId });
      }
    }
  }
  return { experiment_id: e.id, status: statusName(e), remaining, assignments: pending };
}
