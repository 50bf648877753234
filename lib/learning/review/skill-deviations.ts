// A skill's newest deviations for its review page: runs that listed the skill in
// skills_activated but took another path than its class (stored by the monitor at ingestion).
import type { Db } from "../../db/prisma";

export const DEVIATIONS_SHOWN = 10;

export type SkillDeviationEntry = {
  runId: string;
  workflowId: string;
  query: string;
  outcome: "SUCCESS" | "FAILURE";
  /** The path the run took; null when it called no tool. */
  canonicalHash: string | null;
  at: Date;
};

export async function recentSkillDeviations(db: Db, skillId: string, limit = DEVIATIONS_SHOWN): Promise<SkillDeviationEntry[]> {
  const rows = await db.skillDeviation.findMany({
    where: { skillId },
    select: { canonicalHash: true, outcome: true, at: true, workflowRun: { select: { id: true, workflowId: true, query: true } } },
    orderBy: [{ at: "desc" }, { id: "desc" }],
    take: limit,
  });
  return rows.map((r) => ({
    runId: r.workflowRun.id,
    workflowId: r.workflowRun.workflowId,
    query: r.workflowRun.query,
    outcome: r.outcome,
    canonicalHash: r.canonicalHash,
    at: r.at,
  }));
}
