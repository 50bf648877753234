// Incremental promotion cycles. A cycle's report depends only on the eligible classes and on
// the ineligible, uncovered ones seen since the previous cycle (`skipped`); evaluating every
// class on every cadence cycle would make a cycle's cost grow with the agent's history (tens of
// ms of server CPU per cycle at 40,000 runs; docs/benchmarks.md#ingest). A class that a cycle
// found not eligible stays so until its statistics change (ingestion moves `executions`), the
// gate thresholds change, or it loses its live skill (a retirement): the other gates depend on
// the statistics alone, and recency only worsens with time. So each cycle marks the classes it
// found not eligible (checked_executions = the executions it judged, under agents.checked_gates),
// and the next one evaluates only the classes whose mark differs (the partial index
// trajectory_classes_unchecked_idx: changed, new, or eligible last time), those seen since the
// previous cycle, and those with a retired skill (a retirement is dated before it commits, so
// one may land after the previous cycle read the skills while its window is "old" runs): the
// same report as evaluating every class. tests/integration/class-checks.test.ts compares both.
import { isDeepStrictEqual } from "node:util";
import type { Db } from "../../db/prisma";
import { distinctUsersThreshold, type LearningConfig } from "../agents/config";
import { classStatsRowOf, GATE_THRESHOLDS, type ClassEvaluation, type ClassSqlRow, type ClassStatsRow } from "./class-gates";

/** The thresholds a mark was judged under: the configuration keys the gates read. */
const gateThresholds = (c: LearningConfig) => Object.fromEntries(GATE_THRESHOLDS.map(([key]) => [key, c[key]]));

/**
 * Whether the marks can stand in for evaluating the unmarked classes: they were judged under
 * the current thresholds, and a previous cycle bounds what counts as seen since (before the
 * first cycle, every ineligible class is reported).
 */
export const marksApply = (checkedGates: unknown, config: LearningConfig, consideredSince: Date | null): consideredSince is Date =>
  consideredSince !== null && isDeepStrictEqual(checkedGates, gateThresholds(config));

/** A class settled without evaluation: not eligible, and not news (see classesToCheck). */
export type SettledClass = { userScope: string; canonicalHash: string; executions: number };

type DueRow = ClassSqlRow & { settled: boolean };

/**
 * The classes a cycle must look at when the marks apply, in key order (as a full cycle reads
 * them): `evaluate` for the engine, and `settled` ones that SQL already shows to be neither
 * eligible nor skipped (covered by a live skill, or without any skill, failing a gate by
 * class_gate_failures over their own statistics and not seen since the previous cycle), so
 * only their marks move.
 */
export async function classesToCheck(
  db: Db,
  agentId: string,
  config: LearningConfig,
  consideredSince: Date,
  now: Date,
): Promise<{ evaluate: ClassStatsRow[]; settled: SettledClass[] }> {
  const rows = await db.$queryRaw<DueRow[]>`
    WITH due AS (
      SELECT user_scope, canonical_hash FROM trajectory_classes
      WHERE agent_id = ${agentId} AND checked_executions IS DISTINCT FROM executions
      UNION
      SELECT user_scope, canonical_hash FROM trajectory_classes WHERE agent_id = ${agentId} AND last_seen > ${consideredSince}
      UNION
      SELECT user_scope, source_canonical_hash FROM skills WHERE agent_id = ${agentId} AND status IN ('DEMOTED', 'DEPRECATED', 'REJECTED')
    )
    SELECT c.agent_id, c.user_scope, c.canonical_hash, c.tools, c.executions, c.successes, c.distinct_queries, c.distinct_users, c.first_seen, c.last_seen,
      COALESCE(k.live, false) OR (k.live IS NULL AND c.last_seen <= ${consideredSince}
        AND class_gate_failures(false, c.executions, c.successes, c.distinct_queries, c.distinct_users, c.last_seen, ${config.min_executions}::int,
          ${config.min_success_rate}::float8, ${config.min_distinct_queries}::int, ${distinctUsersThreshold(config)}::int,
          ${config.max_days_since_last_seen}::int, ${now}::timestamptz) <> 0) AS settled
    FROM due
    JOIN trajectory_classes c ON c.agent_id = ${agentId} AND c.user_scope = due.user_scope AND c.canonical_hash = due.canonical_hash
    LEFT JOIN LATERAL (
      SELECT bool_or(s.status IN ('CANDIDATE', 'SHADOW', 'ACTIVE')) AS live FROM skills s
      WHERE s.agent_id = ${agentId} AND s.user_scope = c.user_scope AND s.source_canonical_hash = c.canonical_hash
    ) k ON true
    ORDER BY c.user_scope, c.canonical_hash`;
  return {
    evaluate: rows.filter((r) => !r.settled).map(classStatsRowOf),
    settled: rows.filter((r) => r.settled).map((r) => ({ userScope: r.user_scope, canonicalHash: r.canonical_hash, executions: r.executions })),
  };
}

/**
 * Marks what a cycle judged (every class of the agent unless `marksApply`): ineligible
 * classes with the executions judged, eligible ones unmarked so the next cycle sees them again;
 * then records the thresholds, after the marks, so a crash between leaves a full cycle next. A
 * class whose row ingestion holds is skipped (SKIP LOCKED): its executions are moving, so it is
 * due anyway, and the cycle never waits on ingestion nor locks rows against it in another order.
 */
export async function markCheckedClasses(
  db: Db,
  agentId: string,
  config: LearningConfig,
  judged: { evaluated: ClassEvaluation[]; settled: SettledClass[] },
  checkedGates: unknown,
) {
  const all = [
    ...judged.evaluated.map((e) => ({ userScope: e.row.userScope, canonicalHash: e.row.canonicalHash, mark: e.verdict.eligible ? null : e.row.executions })),
    ...judged.settled.map((c) => ({ userScope: c.userScope, canonicalHash: c.canonicalHash, mark: c.executions })),
  ];
  const scopes = all.map((c) => c.userScope);
  const hashes = all.map((c) => c.canonicalHash);
  const marks = all.map((c) => c.mark);
  if (all.length > 0) {
    await db.$executeRaw`
      WITH judged AS (
        SELECT * FROM unnest(${scopes}::text[], ${hashes}::text[], ${marks}::int[]) AS j(user_scope, canonical_hash, mark)
      ),
      locked AS (
        SELECT c.user_scope, c.canonical_hash, j.mark FROM trajectory_classes c JOIN judged j USING (user_scope, canonical_hash)
        WHERE c.agent_id = ${agentId} AND c.checked_executions IS DISTINCT FROM j.mark
        FOR UPDATE OF c SKIP LOCKED
      )
      UPDATE trajectory_classes c SET checked_executions = l.mark FROM locked l
      WHERE c.agent_id = ${agentId} AND c.user_scope = l.user_scope AND c.canonical_hash = l.canonical_hash`;
  }
  const gates = gateThresholds(config);
  if (!isDeepStrictEqual(checkedGates, gates)) await db.$executeRaw`UPDATE agents SET checked_gates = ${JSON.stringify(gates)}::jsonb WHERE id = ${agentId}`;
}
