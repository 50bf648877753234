// The inbox's kinds of decision, their names and who may see each (browser-safe: the sidebar
// renders them). The counts come from lib/console/inbox.ts.
import type { Scope } from "../auth/access";

export const INBOX_KINDS = ["ready_skills", "shadow_skills", "ready_classes", "persona_proposals", "deviations", "suspended_procedures", "dead_jobs", "unmapped_traces", "failed_webhooks"] as const;
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
  failed_webhooks: "webhooks:read",
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
  failed_webhooks: "Failed webhook deliveries",
};

/** The scope whose holder decides each kind: the others read the inbox as a report, not a to-do list. */
const DECIDE_SCOPE: Record<InboxKind, Scope> = {
  ready_skills: "learning:write",
  shadow_skills: "learning:write",
  ready_classes: "learning:write",
  persona_proposals: "persona:decide",
  deviations: "learning:write",
  suspended_procedures: "learning:write",
  dead_jobs: "learning:write",
  unmapped_traces: "learning:write",
  failed_webhooks: "webhooks:manage",
};

/** What a group holds, as a call to action for who decides it and as a description for who only reads. */
const WHY: Record<InboxKind, { decide: string; read: string }> = {
  ready_skills: {
    decide: "Shadow skills whose readiness is met: activate or reject them, one by one or a procedure's group at once on Skills.",
    read: "Shadow skills whose readiness is met, waiting for an admin to activate or reject them.",
  },
  shadow_skills: {
    decide: "Skills created by distillation, observed in shadow (or waiting as candidates) until you decide.",
    read: "Skills created by distillation, observed in shadow (or waiting as candidates) until an admin decides.",
  },
  ready_classes: {
    decide: "Trajectory classes that pass every gate and no live skill covers: distill them.",
    read: "Trajectory classes that pass every gate and no live skill covers, waiting for an admin to distill them.",
  },
  persona_proposals: {
    decide: "Reflections that suggest new learning goals for an account: approve or dismiss.",
    read: "Reflections that suggest new learning goals for an account, waiting for an admin.",
  },
  deviations: {
    decide: "Active skills whose runs often take another path than the skill's class.",
    read: "Active skills whose runs often take another path than the skill's class.",
  },
  suspended_procedures: {
    decide: "Ledger procedures suspended by their monitoring failure streak.",
    read: "Ledger procedures suspended by their monitoring failure streak.",
  },
  dead_jobs: { decide: "Background jobs that failed after every retry.", read: "Background jobs that failed after every retry." },
  unmapped_traces: {
    decide: "OpenTelemetry traces received recently that made no runs: what arrived and why, to fix in the agent's instrumentation.",
    read: "OpenTelemetry traces received recently that made no runs, and why.",
  },
  failed_webhooks: {
    decide: "Webhook messages whose every attempt failed: fix the receiver, then redeliver them.",
    read: "Webhook messages whose every attempt failed.",
  },
};

/** A group's description for a user who may (`canDecide`) or may not decide it. */
export const inboxWhy = (kind: InboxKind, can: (scope: Scope) => boolean) => (can(DECIDE_SCOPE[kind]) ? WHY[kind].decide : WHY[kind].read);

export type InboxCounts = Partial<Record<InboxKind, number>>;

export const inboxTotal = (c: InboxCounts) => INBOX_KINDS.reduce((a, k) => a + (c[k] ?? 0), 0);
