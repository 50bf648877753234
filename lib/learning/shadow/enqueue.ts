// The outbox half of passive shadow evaluation. The ingestion statement itself
// (lib/learning/capture/ingest-sql.ts) enqueues one job per eligible new run, bounded by the agent's
// queue size, and counts the runs beyond the bound in agents.shadow_dropped (the reference drops
// them from its in-memory queue with a warning). Eligibility is decided here, per run.
export const SHADOW_EVALUATION_JOB = "shadow_evaluation";

/** The reference's preconditions: a hash, a non-empty query, at least one step, a timestamp. */
export function shadowEligible(run: { canonicalHash: string | null; query: string; stepCount: number; createdAt: Date }): boolean {
  return run.canonicalHash !== null && run.query.trim() !== "" && run.stepCount >= 1 && !Number.isNaN(run.createdAt?.getTime?.());
}
