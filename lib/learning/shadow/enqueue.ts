// The outbox half of passive shadow evaluation: inside the ingestion transaction, ONE
// statement enqueues a job per eligible new run, bounded by the agent's queue size. Runs
// beyond the bound are counted in agents.shadow_dropped instead (the reference drops them
// from its in-memory queue with a warning). The caller holds the agent row's lock (the
// monitor's first statement updates it), so concurrent batches cannot both see room.
import type { Tx } from "../../db/prisma";
import type { LearningConfig } from "../config";
import type { StoredRun } from "../monitor";

export const SHADOW_EVALUATION_JOB = "shadow_evaluation";

/** The reference's preconditions: a hash, a non-empty query, at least one step, a timestamp. */
export function shadowEligible(run: Pick<StoredRun, "canonicalHash" | "query" | "stepCount" | "createdAt">): boolean {
  return run.canonicalHash !== null && run.query.trim() !== "" && run.stepCount >= 1 && !Number.isNaN(run.createdAt?.getTime?.());
}

/** Enqueues (or drops) one evaluation job per eligible run; the payload is the run's id only. */
export async function enqueueShadowJobs(
  tx: Tx,
  agentId: string,
  runs: StoredRun[],
  config: Pick<LearningConfig, "shadow_evaluation_enabled" | "shadow_evaluation_queue_size">,
): Promise<void> {
  if (!config.shadow_evaluation_enabled) return;
  const ids = runs.filter(shadowEligible).map((r) => r.id);
  if (ids.length === 0) return;
  const size = config.shadow_evaluation_queue_size;
  // Counting stops at the bound, so the check costs at most `size` index entries.
  await tx.$executeRaw`
    WITH room AS (
      SELECT GREATEST(0, ${size}::int - (SELECT count(*) FROM (
        SELECT 1 FROM jobs WHERE kind = ${SHADOW_EVALUATION_JOB} AND agent_id = ${agentId} AND status = 'PENDING' LIMIT ${size}::int
      ) pending))::int AS n
    ),
    ins AS (
      INSERT INTO jobs (kind, agent_id, payload, status, run_after)
      SELECT ${SHADOW_EVALUATION_JOB}, ${agentId}, jsonb_build_object('run_id', r.id), 'PENDING', now()
      FROM unnest(${ids}::text[]) WITH ORDINALITY AS r(id, ord), room
      WHERE r.ord <= room.n
      RETURNING 1
    )
    UPDATE agents SET shadow_dropped = shadow_dropped + (${ids.length}::int - (SELECT count(*)::int FROM ins))
    WHERE id = ${agentId} AND (SELECT count(*) FROM ins) < ${ids.length}::int`;
}
