// The inbox's kinds of decision, their names and who may see each (browser-safe: the sidebar
// renders them). The counts come from lib/console/inbox.ts.
import type { Scope } from "../auth/access";

export const INBOX_KINDS = ["ready_skills", "shadow_skills", "ready_classes", "persona_proposals", "deviations", "suspended_procedures", "dead_jobs", "unmapped_traces"] as const;
export type InboxKind = (typeof INBOX_KINDS)[number];

/** The scope that lets a user see each kind (its own page's). */
export const INBOX_SCOPE: Record<InboxKind, Scope> = {
  ready_skills: "learning:read",
  shadow_skills: "learning:read",
  ready_classes: "learning:read",
  persona_proposals: "persona:read",
  deviations: "learning:read",
  suspended_procedures: "ledger:read",
  dead_jobs: "learning:read",
  unmapped_traces: "learning:read",
};

export const INBOX_LABEL: Record<InboxKind, string> = {
  ready_skills: "Skills ready for review",
  shadow_skills: "Skills waiting in shadow",
  ready_classes: "Classes ready to distill",
  persona_proposals: "Persona suggestions",
  deviations: "Flagged deviations",
  suspended_procedures: "Suspended procedures",
  dead_jobs: "Dead jobs",
  unmapped_traces: "Traces that made no runs",
};

export type InboxCounts = Partial<Record<InboxKind, number>>;

export const inboxTotal = (c: InboxCounts) => INBOX_KINDS.reduce((a, k) => a + (c[k] ?? 0), 0);
