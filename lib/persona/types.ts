// The persona evolution contract: the canonical state every persona operation returns (the
// reference's "learning goals" profile, snake_case on the wire, read by lib/persona/state.ts),
// and the console-only shape of the admins' decisions beside it.

export type EvidenceItem = {
  /** The conversation message's id as the agent sent it. */
  id: string;
  thread_id: string;
  agent_id: string;
  timestamp: string;
  /** An excerpt of the message (private text); "" once expired. */
  text: string;
  /** Conversation retention deleted the message and this excerpt of it (lib/learning/monitor/quote-expiry.ts). */
  expired?: true;
};

export type GoalsChange = { goals: { old: string; new: string } };
export type TraceLink = { thread_id: string; root_trace_id: string };

export type HistoryEntry = {
  version: number;
  timestamp: string;
  action: "applied" | "undo";
  actor_id: string;
  review_id: string | null;
  change_trigger: { reason: string };
  changes: GoalsChange;
  evidence: EvidenceItem[];
  trace?: TraceLink;
};

export type PendingProposal = {
  id: string;
  review_id: string;
  reason: string;
  created_at: string;
  changes: GoalsChange;
  evidence: EvidenceItem[];
};

export type ReviewStatus =
  | "reviewing"
  | "proposed"
  | "no_change"
  | "failed"
  | "approved"
  | "dismissed"
  | "superseded"
  | "cancelled";

export type ReviewEntry = {
  id: string;
  status: ReviewStatus;
  timestamp: string;
  reason: string;
  evidence_count: number;
  selected_count: number;
  trigger: "manual" | "daily";
  trace?: TraceLink;
  model: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  duration_ms: number | null;
  estimated_cost_usd: number | null;
};

export type PersonaState = {
  user_id: string;
  agent_id: string;
  revision: number;
  paused: boolean;
  pending: PendingProposal | null;
  persona: {
    persona_id: string | null;
    name: string;
    role: string;
    goals: string;
    version: number;
    evolution_history: HistoryEntry[];
  };
  review_state: ReviewStatus | "not_reviewed";
  last_review_at: string | null;
  reviews: ReviewEntry[];
  history_limit: number;
  daily_enabled: boolean;
  next_daily_check_at: string | null;
  last_daily_check_at: string | null;
  last_daily_outcome: string | null;
  /** Only when nothing changed and no model call was made. */
  notice?: "no_new_evidence";
};

export type ReflectTrigger = "manual" | "daily";

/** A suggestion an admin approved or dismissed, kept for the activity list (console only, not the contract). */
export type DecidedProposal = {
  proposal_id: string;
  review_id: string;
  status: "approved" | "dismissed";
  decided_at: string | null;
  decided_by: string | null;
  /** The admin's reason; null when none was given. */
  decision_reason: string | null;
  changes: GoalsChange;
};

/** The decisions behind an account's activity: decided suggestions by review id, admins' reasons by persona version. */
export type PersonaDecisions = { proposals: Record<string, DecidedProposal>; notes: Record<number, string> };
