// How the settings page presents each learning configuration key: its section, label, input
// kind and meaning. Labels are distinct across sections (a reviewer reads one field at a time). Every key of the schema appears exactly once (a unit test checks it).
// Browser-safe: the form validates with the same schema before the server does again.
import type { LearningConfig } from "../config";

export type FieldKind = "int" | "number" | "rate" | "nullable-rate" | "nullable-int" | "boolean" | "text";

export type ConfigField = { key: keyof LearningConfig; label: string; kind: FieldKind; help: string };

export type ConfigGroup = { id: string; title: string; description: string; fields: ConfigField[] };

/** Keys the authority selector edits (shown together, not as plain fields). */
export const AUTHORITY_KEYS = ["skill_injection_role", "require_shadow", "shadow_evaluation_enabled", "auto_activate", "require_qualification"] as const;

export const CONFIG_GROUPS: ConfigGroup[] = [
  {
    id: "ingestion",
    title: "Ingestion and outcomes",
    description:
      "Every run is judged as it arrives, the first that applies: an execution error, a reported failure, a failing outcome rule, a reported success, a last step that errored, else success. Stored runs feed the class statistics below.",
    fields: [
      { key: "promotion_every_n_runs", label: "Promotion cycle every N runs", kind: "int", help: "Ingestion queues a promotion cycle after this many new runs; 0 turns automatic cycles off (manual cycles and Distill now only)." },
    ],
  },
  {
    id: "gates",
    title: "Gates",
    description: "A trajectory class is distilled only when every gate passes.",
    fields: [
      { key: "min_executions", label: "Minimum runs", kind: "int", help: "Runs of the class needed before it can be distilled." },
      { key: "min_success_rate", label: "Minimum success rate", kind: "rate", help: "Share of successful runs (0–1); at or above passes." },
      { key: "min_distinct_queries", label: "Minimum distinct queries", kind: "int", help: "Different normalized questions; one repeated query is a cache entry, not a skill." },
      { key: "max_days_since_last_seen", label: "Maximum days since last run", kind: "int", help: "Classes not seen for longer are stale." },
    ],
  },
  {
    id: "distillation",
    title: "Distillation and validation",
    description: "How eligible classes are ranked, how many are distilled per cycle, what the distiller reads and how long a SKILL.md may be before validation refuses it.",
    fields: [
      { key: "recency_halflife_days", label: "Recency half-life (days)", kind: "number", help: "Ranking: a class's score halves for every this many days since its last run." },
      { key: "max_promotions_per_cycle", label: "Skills distilled per cycle", kind: "int", help: "Eligible classes beyond this wait for the next cycle (listed as deferred)." },
      { key: "distill_sample_size", label: "Successful runs sampled", kind: "int", help: "Newest successful runs sent to the distiller." },
      { key: "include_failure_samples", label: "Failed runs sampled", kind: "int", help: "Newest failed runs sent to the distiller (failure modes)." },
      { key: "skill_max_content_chars", label: "Maximum SKILL.md length", kind: "int", help: "Characters; longer distillations are refused by validation." },
    ],
  },
  {
    id: "shadow",
    title: "Shadow evaluation",
    description: "Shadow skills are compared passively with new runs (nothing is injected); activation stays an explicit reviewer decision.",
    fields: [
      { key: "shadow_evaluation_max_candidates", label: "Shadow skills compared per run", kind: "int", help: "Shadow skills compared with each new run." },
      { key: "shadow_evaluation_min_similarity", label: "Shadow match: minimum query similarity", kind: "nullable-rate", help: "A run is compared with a shadow skill only at or above this similarity. Empty: the injection threshold (retrieval_min_similarity)." },
      { key: "shadow_evaluation_queue_size", label: "Evaluation queue size", kind: "int", help: "Pending evaluations kept per agent; runs arriving while it is full are not evaluated and are counted as dropped (queue full)." },
      { key: "shadow_evaluation_recent_window", label: "Recent evaluations kept", kind: "int", help: "Per skill, for the review page." },
      { key: "shadow_readiness_min_observations", label: "Readiness: observations", kind: "int", help: "Passive observations before a shadow skill counts as ready." },
      { key: "shadow_readiness_min_trajectory_match_rate", label: "Readiness: trajectory match rate", kind: "rate", help: "Share of observed runs that took the skill's path." },
      { key: "shadow_readiness_min_matched_success_rate", label: "Readiness: matched success rate", kind: "rate", help: "Share of matching runs that succeeded." },
    ],
  },
  {
    id: "injection",
    title: "Injection and retrieval",
    description: "Which active skills /context retrieves for a query and puts into the agent's prompt.",
    fields: [
      { key: "retrieval_min_similarity", label: "Injection: minimum query similarity", kind: "rate", help: "Active skills less similar to the query are not injected." },
      { key: "max_skills_in_context", label: "Skills per turn", kind: "int", help: "At most this many skills per request." },
      { key: "include_exemplar", label: "Include exemplar run (deprecated)", kind: "boolean", help: "Accepted for compatibility and ignored: raw runs are never injected next to a skill." },
    ],
  },
  {
    id: "monitoring",
    title: "Monitoring",
    description: "Active skills are demoted when their rolling success falls below the frozen baseline (drift).",
    fields: [
      { key: "drift_window_activations", label: "Rolling window (activations)", kind: "int", help: "Recent activations the rolling success rate is computed over." },
      { key: "demotion_success_delta", label: "Demotion delta", kind: "rate", help: "Demote when rolling success < baseline − delta." },
      { key: "min_activations_before_drift_check", label: "Grace period (activations)", kind: "int", help: "No drift check before this many activations." },
    ],
  },
  {
    id: "ledger",
    title: "Ledger",
    description: "The evidence-ledger policy a shadow skill is qualified under (skill vs. no skill on the same held-out cases). Qualification is started by an admin; activation stays a separate decision.",
    fields: [
      { key: "ledger_baseline_revision", label: "Baseline revision", kind: "text", help: "What the skill is compared with." },
      { key: "ledger_qualification_trials", label: "Qualification trials", kind: "int", help: "Paired cases before the decision (2 to 1,000,000)." },
      { key: "ledger_confidence_delta", label: "Confidence delta", kind: "number", help: "Hoeffding bound failure probability, in (0, 0.5)." },
      { key: "ledger_min_improvement", label: "Minimum improvement", kind: "rate", help: "Activation needs the lower bound of the mean improvement at or above this." },
      { key: "ledger_min_candidate_utility", label: "Minimum candidate utility", kind: "rate", help: "Mean utility the skill itself must reach (at or above)." },
      { key: "ledger_max_cost_units", label: "Maximum cost per case", kind: "int", help: "Cost units; a case above this is a budget violation." },
      { key: "ledger_max_latency_ms", label: "Maximum latency per case (ms)", kind: "int", help: "A case above this is a budget violation." },
      { key: "ledger_max_failure_streak", label: "Failure streak before suspension", kind: "int", help: "Consecutive failed monitoring cases that suspend an active procedure." },
      { key: "ledger_evaluator_id", label: "Evaluator id", kind: "text", help: "The only evaluator whose results count." },
      { key: "ledger_evaluation_contract", label: "Evaluation contract", kind: "text", help: "The evaluation protocol the results must name." },
    ],
  },
  {
    id: "retention",
    title: "Retention",
    description:
      "How long private data is kept. Older runs lose their query, steps and answer but keep their outcome, time and trajectory hash, so gates, baselines and drift windows stay exact; older conversation messages are deleted.",
    fields: [
      { key: "run_retention_days", label: "Run payloads kept (days)", kind: "nullable-int", help: "1–3650. Empty: the instance default (PROCTOR_RUN_RETENTION_DAYS; kept forever unless set)." },
      { key: "conversation_retention_days", label: "Conversations kept (days)", kind: "nullable-int", help: "1–3650. Empty: the instance default (PROCTOR_CONVERSATION_RETENTION_DAYS; kept forever unless set)." },
    ],
  },
];

/** Every field by key, for wording errors and counting changes. */
export const CONFIG_FIELDS: ReadonlyMap<string, ConfigField> = new Map(CONFIG_GROUPS.flatMap((g) => g.fields).map((f) => [f.key as string, f]));
