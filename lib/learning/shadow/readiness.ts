// Advisory shadow readiness, computed from the skill's passive shadow
// statistics. It never activates anything; activation stays an explicit review decision.
import type { LearningConfig } from "../agents/config";

export type ShadowStats = {
  observations: number;
  trajectory_matches: number;
  trajectory_mismatches: number;
  matched_successes: number;
  matched_failures: number;
  last_evaluated_at: string | null;
};

export type Readiness = {
  ready: boolean;
  observations: number;
  trajectory_match_rate: number;
  matched_success_rate: number;
  reasons: string[];
};

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);

export function shadowStatsOf(stored: unknown): ShadowStats {
  const s = (stored && typeof stored === "object" ? stored : {}) as Record<string, unknown>;
  return {
    observations: num(s.observations),
    trajectory_matches: num(s.trajectory_matches),
    trajectory_mismatches: num(s.trajectory_mismatches),
    matched_successes: num(s.matched_successes),
    matched_failures: num(s.matched_failures),
    last_evaluated_at: typeof s.last_evaluated_at === "string" ? s.last_evaluated_at : null,
  };
}

type ReadinessConfig = Pick<
  LearningConfig,
  "shadow_readiness_min_observations" | "shadow_readiness_min_trajectory_match_rate" | "shadow_readiness_min_matched_success_rate"
>;

export function shadowReadiness(stats: ShadowStats, config: ReadinessConfig): Readiness {
  const n = stats.observations;
  const matchRate = n > 0 ? stats.trajectory_matches / n : 0;
  const matched = stats.matched_successes + stats.matched_failures;
  const successRate = matched > 0 ? stats.matched_successes / matched : 0;
  const reasons: string[] = [];
  if (n < config.shadow_readiness_min_observations) reasons.push(`observations ${n} < ${config.shadow_readiness_min_observations}`);
  if (matchRate < config.shadow_readiness_min_trajectory_match_rate) {
    reasons.push(`trajectory match rate ${matchRate.toFixed(2)} < ${config.shadow_readiness_min_trajectory_match_rate.toFixed(2)}`);
  }
  if (successRate < config.shadow_readiness_min_matched_success_rate) {
    reasons.push(`matched success rate ${successRate.toFixed(2)} < ${config.shadow_readiness_min_matched_success_rate.toFixed(2)}`);
  }
  return { ready: reasons.length === 0, observations: n, trajectory_match_rate: matchRate, matched_success_rate: successRate, reasons };
}
