// A skill's newest shadow evaluations for the review page, each with its run (for the link).
// One indexed read (skill_id, evaluated_at desc), never a scan of the workflows.
import type { Db } from "../../db/prisma";

export type RecentShadowEvaluation = {
  runId: string;
  workflowId: string;
  evaluatedAt: Date;
  similarity: number;
  trajectoryMatch: boolean;
  observedOutcome: string;
};

export async function recentShadowEvaluations(db: Db, skillId: string, limit: number): Promise<RecentShadowEvaluation[]> {
  const rows = await db.$queryRaw<{ run_id: string; workflow_id: string; evaluated_at: Date; record: Record<string, unknown> }[]>`
    SELECT e.workflow_run_id AS run_id, w.workflow_id, e.evaluated_at, e.record
    FROM shadow_evaluations e JOIN workflows w ON w.id = e.workflow_run_id
    WHERE e.skill_id = ${skillId}
    ORDER BY e.evaluated_at DESC, e.id DESC
    LIMIT ${limit}`;
  return rows.map((r) => ({
    runId: r.run_id,
    workflowId: r.workflow_id,
    evaluatedAt: r.evaluated_at,
    similarity: typeof r.record.similarity === "number" ? r.record.similarity : 0,
    trajectoryMatch: r.record.trajectory_match === true,
    observedOutcome: typeof r.record.observed_outcome === "string" ? r.record.observed_outcome : "failure",
  }));
}
