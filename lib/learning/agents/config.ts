// The agent's learning configuration: every key and default of the seed's configuration
// reference, plus the evidence ledger's qualification keys. One zod schema serves the API,
// the settings page and the engine.
import { z } from "zod";
import { ledgerIdSchema, policySchema } from "../../ledger/schemas";

const rate = z.number().min(0).max(1);
const positiveInt = z.number().int().min(1);
const nonNegativeInt = z.number().int().min(0);
/** Retention in days: 1 day to 10 years; null: the instance default (lib/learning/monitor/retention.ts). */
const retentionDays = z.number().int().min(1).max(3650);
/** The ledger's own policy fields; its defaults (128 trials, delta 0.01, …) are ours too. */
const ledgerPolicy = policySchema.shape;

/**
 * Whose runs form one trajectory class. "agent": every account's runs of a procedure pool into
 * one class and its skill reaches every account (user_scope ""); "user": each account's runs are
 * a class of their own and its skill reaches only that account (the reference's exact scope).
 */
export const LEARNING_SCOPES = ["agent", "user"] as const;
export type LearningScope = (typeof LEARNING_SCOPES)[number];
export const learningScopeSchema = z.enum(LEARNING_SCOPES, { error: "learning_scope must be agent or user" });

const learningConfigShape = {
  min_executions: positiveInt.default(5),
  min_success_rate: rate.default(0.8),
  min_distinct_queries: positiveInt.default(2),
  // New agents pool their accounts' runs; agents that existed before this key keep "user"
  // (a data migration wrote it into their stored configuration).
  learning_scope: learningScopeSchema.default("agent"),
  /** Pooled classes whose successful runs carry accounts need this many distinct accounts. */
  min_distinct_users: positiveInt.default(3),
  max_days_since_last_seen: nonNegativeInt.default(30),
  recency_halflife_days: z.number().positive().default(14),
  max_promotions_per_cycle: positiveInt.default(3),
  distill_sample_size: positiveInt.default(5),
  include_failure_samples: nonNegativeInt.default(2),
  skill_max_content_chars: z.number().int().min(200).default(4000),
  // Review first: new skills wait for an admin unless the agent opts out.
  require_shadow: z.boolean().default(true),
  /** The explicit opt-out: with require_shadow false, new skills go ACTIVE without review. */
  auto_activate: z.boolean().default(false),
  /** Activation needs the skill's ledger procedure ACTIVE (paired-evaluation qualification). */
  require_qualification: z.boolean().default(false),
  shadow_evaluation_enabled: z.boolean().default(false),
  shadow_evaluation_max_candidates: positiveInt.default(3),
  shadow_evaluation_min_similarity: rate.nullable().default(null),
  shadow_evaluation_queue_size: positiveInt.default(100),
  shadow_evaluation_recent_window: positiveInt.default(50),
  shadow_readiness_min_observations: positiveInt.default(10),
  shadow_readiness_min_trajectory_match_rate: rate.default(0.8),
  shadow_readiness_min_matched_success_rate: rate.default(0.8),
  skill_injection_role: z
    .string()
    .transform((s) => s.toLowerCase())
    .pipe(z.enum(["user", "developer"], { error: "learned-skill authority must be user or developer" }))
    .default("user"),
  retrieval_min_similarity: rate.default(0.7),
  max_skills_in_context: positiveInt.default(2),
  /** Deprecated compatibility key: accepted, stored, ignored (raw runs are never co-injected). */
  include_exemplar: z.boolean().default(false),
  drift_window_activations: positiveInt.default(10),
  demotion_success_delta: rate.default(0.25),
  min_activations_before_drift_check: nonNegativeInt.default(5),
  promotion_every_n_runs: nonNegativeInt.default(25),
  // Paired-evaluation qualification of shadow skills (lib/ledger/skills.ts): the baseline
  // revision and the ledger policy, validated exactly as the ledger validates a proposal.
  ledger_baseline_revision: ledgerIdSchema.default("no-skill"),
  ledger_qualification_trials: ledgerPolicy.qualification_trials,
  ledger_confidence_delta: ledgerPolicy.confidence_delta,
  ledger_min_improvement: ledgerPolicy.min_improvement,
  ledger_min_candidate_utility: ledgerPolicy.min_candidate_utility,
  ledger_max_cost_units: ledgerPolicy.max_cost_units,
  ledger_max_latency_ms: ledgerPolicy.max_latency_ms,
  ledger_max_failure_streak: ledgerPolicy.max_failure_streak,
  ledger_evaluator_id: ledgerPolicy.evaluator_id.default("proctor-paired-evaluator"),
  ledger_evaluation_contract: ledgerPolicy.evaluation_contract.default("proctor-skill-paired-v1"),
  // Retention (README "Forgetting and retention"): how long runs keep their private fields and conversation messages are kept.
  run_retention_days: retentionDays.nullable().default(null),
  conversation_retention_days: retentionDays.nullable().default(null),
};

type Refined = { skill_injection_role: string; require_shadow: boolean; auto_activate: boolean; require_qualification: boolean };

function refineLearning(c: Refined, ctx: z.RefinementCtx) {
  if (c.skill_injection_role === "developer" && !c.require_shadow) {
    ctx.addIssue({
      code: "custom",
      path: ["skill_injection_role"],
      message: "developer authority requires require_shadow=true (shadow review before activation)",
    });
  }
  if (c.auto_activate && c.require_shadow) {
    ctx.addIssue({ code: "custom", path: ["auto_activate"], message: "auto_activate skips review; it needs require_shadow=false" });
  }
  if (c.require_qualification && !c.require_shadow) {
    // Qualification starts from a shadow skill, and auto-activation would bypass it.
    ctx.addIssue({ code: "custom", path: ["require_qualification"], message: "require_qualification needs require_shadow=true (qualification starts from a shadow skill)" });
  }
}

export const learningConfigSchema = z.object(learningConfigShape).strict().superRefine(refineLearning);

/**
 * The learning configuration of an agent's declaration (PUT agent): every key as above, except
 * that learning_scope may be left out: a new agent then pools its accounts ("agent"), and an
 * existing one keeps the scope it has, so re-declaring an agent never regroups its runs unasked.
 */
export const declaredLearningSchema = z
  .object({
    ...learningConfigShape,
    learning_scope: learningScopeSchema
      .optional()
      .describe('"agent" pools every account\'s runs into one class per procedure (skills reach every account); "user" keeps one class per account. Absent: "agent" for a new agent, the current scope for an existing one'),
  })
  .strict()
  .superRefine(refineLearning);

export type LearningConfig = z.output<typeof learningConfigSchema>;

/** The user scope a run of this account is stored and classed under ("" is the agent-wide scope). */
export const runUserScope = (config: Pick<LearningConfig, "learning_scope">, userId: string | null | undefined): string =>
  config.learning_scope === "user" ? (userId ?? "") : "";

/**
 * The skill scopes a request of this account may receive: the agent-wide skills, plus under
 * "user" the account's own. A request without an account gets the agent-wide ones.
 */
export const skillScopesFor = (config: Pick<LearningConfig, "learning_scope">, userId: string | null | undefined): string[] =>
  config.learning_scope === "user" && userId ? ["", userId] : [""];

/**
 * The distinct-accounts threshold the gates apply: min_distinct_users for pooled classes, none
 * (0) under the per-account scope, where a class holds one account's runs by construction.
 */
export const distinctUsersThreshold = (config: Pick<LearningConfig, "learning_scope" | "min_distinct_users">): number =>
  config.learning_scope === "agent" ? config.min_distinct_users : 0;

export const DEFAULT_LEARNING_CONFIG: LearningConfig = learningConfigSchema.parse({});

/** Reads a stored config; stored values were validated on write, defaults fill new keys. */
export function resolveLearningConfig(stored: unknown): LearningConfig {
  const r = learningConfigSchema.safeParse(stored ?? {});
  return r.success ? r.data : DEFAULT_LEARNING_CONFIG;
}
