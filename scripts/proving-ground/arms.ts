// The arms: each a row of the table, on the same world and seed. Floor and oracle need no
// learning engine (the model unaided, or given the true procedure); the others are one agent
// each on the running Proctor, differing only in the learning settings declared for it. Every
// server arm runs its promotion cycle once per round through the admin API (cadence off) so that
// a run of the same seed makes the same decisions.
export type LearningSettings = Record<string, unknown> & {
  shadow_evaluation_enabled?: boolean;
  require_qualification?: boolean;
};

export type Arm = {
  name: string;
  label: string;
  /** null: computed without the server (floor: no skills; oracle: the true procedure injected). */
  learning: LearningSettings | null;
  /** Ledger monitoring cases per active qualified skill and round. */
  monitoringCases: number;
};

/** The recommended rollout's qualification budget: paired cases per skill version. */
export const QUALIFICATION_TRIALS = 100;

const CYCLE = { promotion_every_n_runs: 0 };

/**
 * Readiness's trajectory match rate (the seed's 0.80) asks that the agent already take the
 * skill's path unaided on 80 % of matching requests: a skill that changes what the agent does,
 * the only kind that can help, is never ready by it (docs/proving-ground.md, "What the engine
 * needed"). The rollout reads readiness for evidence against the path (observations, matched
 * success) and leaves the causal question to qualification.
 */
export const READINESS_MATCH_RATE = 0;

/**
 * With the offline embedder a request sharing half a skill's intent ("refund order" against a
 * skill for "refund subscription") scores 0.72–0.75, above the seed's 0.70: a near-miss
 * procedure, which the seed says must never be forced. Whole-intent matches score 1.00 here.
 */
export const RETRIEVAL_MIN_SIMILARITY = 0.8;

const recommended: LearningSettings = {
  ...CYCLE,
  require_shadow: true,
  shadow_evaluation_enabled: true,
  // Room for every run of a round: the default 100 drops evaluations beyond it, how many
  // depending on how fast the worker drains while a round's batches arrive.
  shadow_evaluation_queue_size: 1000,
  shadow_readiness_min_trajectory_match_rate: READINESS_MATCH_RATE,
  retrieval_min_similarity: RETRIEVAL_MIN_SIMILARITY,
  require_qualification: true,
  ledger_qualification_trials: QUALIFICATION_TRIALS,
  ledger_confidence_delta: 0.1,
};

export const ARMS: Arm[] = [
  { name: "floor", label: "no learning (floor)", learning: null, monitoringCases: 0 },
  { name: "defaults", label: "Proctor's defaults", learning: { ...CYCLE }, monitoringCases: 0 },
  { name: "recommended", label: "recommended rollout", learning: recommended, monitoringCases: 2 },
  {
    name: "ungoverned",
    label: "ungoverned (append-only)",
    // Auto-activation, drift demotion off (no rolling rate is ever a whole 1.0 below a baseline),
    // five times the per-prompt and per-cycle limits.
    learning: { ...CYCLE, require_shadow: false, auto_activate: true, demotion_success_delta: 1, max_skills_in_context: 10, max_promotions_per_cycle: 15 },
    monitoringCases: 0,
  },
  {
    name: "premature",
    label: "premature retirement",
    // The recommended rollout with demotion at the first dip: any rolling rate under the
    // baseline after one activation, a one-run window, a one-case ledger failure streak.
    learning: { ...recommended, drift_window_activations: 1, demotion_success_delta: 0, min_activations_before_drift_check: 1, ledger_max_failure_streak: 1 },
    monitoringCases: 2,
  },
  { name: "oracle", label: "oracle library (ceiling)", learning: null, monitoringCases: 0 },
];
