// The versioned shadow evaluation record and the skill's shadow statistics derived
// from the records. Pure: the worker applies one new record incrementally (applyRecord) and
// the result always equals a full recount of the records (recountStats), which tests check.
import { shadowStatsOf, type ShadowStats } from "./readiness";

export const EVALUATOR_VERSION = "v1";

export type ShadowRecord = {
  idempotency_key: string;
  skill_id: string;
  skill_version: number;
  similarity: number;
  expected_canonical_hash: string | null;
  observed_canonical_hash: string;
  trajectory_match: boolean;
  applicability_mismatch: boolean;
  /** Null when the trajectory did not match: a different path is not a failure of the skill. */
  matched_trajectory_succeeded: boolean | null;
  observed_outcome: string;
  evaluated_at: string;
  evaluator_version: string;
};

export type ShadowStatsDoc = ShadowStats & { recent_evaluations: ShadowRecord[] };

export function buildRecord(
  run: { id: string; canonicalHash: string; outcome: "SUCCESS" | "FAILURE" | string | null },
  skill: { id: string; version: number; sourceCanonicalHash: string | null },
  similarity: number,
  evaluatedAt: Date,
): ShadowRecord {
  const match = !!skill.sourceCanonicalHash && run.canonicalHash === skill.sourceCanonicalHash;
  const observed = run.outcome ? run.outcome.toLowerCase() : "failure";
  return {
    idempotency_key: `${run.id}:${skill.id}:${EVALUATOR_VERSION}`,
    skill_id: skill.id,
    skill_version: skill.version,
    similarity,
    expected_canonical_hash: skill.sourceCanonicalHash,
    observed_canonical_hash: run.canonicalHash,
    trajectory_match: match,
    applicability_mismatch: !match,
    matched_trajectory_succeeded: match ? observed === "success" : null,
    observed_outcome: observed,
    evaluated_at: evaluatedAt.toISOString(),
    evaluator_version: EVALUATOR_VERSION,
  };
}

const byTime = (a: ShadowRecord, b: ShadowRecord) =>
  a.evaluated_at < b.evaluated_at ? -1 : a.evaluated_at > b.evaluated_at ? 1 : a.idempotency_key < b.idempotency_key ? -1 : a.idempotency_key > b.idempotency_key ? 1 : 0;

function readStats(stored: unknown): ShadowStatsDoc {
  const recent = (stored as { recent_evaluations?: unknown } | null)?.recent_evaluations;
  return { ...shadowStatsOf(stored), recent_evaluations: Array.isArray(recent) ? (recent as ShadowRecord[]) : [] };
}

/** The newest evaluation records kept in the stored statistics (reference `recent_evaluations`). */
export function recentEvaluationsOf(stored: unknown): ShadowRecord[] {
  return readStats(stored).recent_evaluations;
}

/** The statistics after one new record (never called for a record already counted). */
export function applyRecord(stored: unknown, rec: ShadowRecord, recentWindow: number): ShadowStatsDoc {
  const s = readStats(stored);
  const matched = rec.trajectory_match;
  const success = rec.observed_outcome === "success";
  return {
    observations: s.observations + 1,
    trajectory_matches: s.trajectory_matches + (matched ? 1 : 0),
    trajectory_mismatches: s.trajectory_mismatches + (matched ? 0 : 1),
    matched_successes: s.matched_successes + (matched && success ? 1 : 0),
    matched_failures: s.matched_failures + (matched && !success ? 1 : 0),
    last_evaluated_at: s.last_evaluated_at && s.last_evaluated_at > rec.evaluated_at ? s.last_evaluated_at : rec.evaluated_at,
    recent_evaluations: [...s.recent_evaluations, rec].sort(byTime).slice(-recentWindow),
  };
}

/** The reference's reconcile: the statistics of all of a skill version's records, de-duplicated by key. */
export function recountStats(records: ShadowRecord[], recentWindow: number): ShadowStatsDoc {
  const unique = [...new Map(records.map((r) => [r.idempotency_key, r])).values()].sort(byTime);
  const matched = unique.filter((r) => r.trajectory_match);
  const successes = matched.filter((r) => r.observed_outcome === "success").length;
  return {
    observations: unique.length,
    trajectory_matches: matched.length,
    trajectory_mismatches: unique.length - matched.length,
    matched_successes: successes,
    matched_failures: matched.length - successes,
    last_evaluated_at: unique.length ? unique[unique.length - 1].evaluated_at : null,
    recent_evaluations: unique.slice(-recentWindow),
  };
}
