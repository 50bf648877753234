// Reads one account's canonical persona state (the contract's shape) from the database, and what
// a persona starts from before one is stored. The database stores statuses as SCREAMING_CASE
// enums; the contract spells them in lower case.
import type { Tx } from "../db/prisma";
import type { AccountPersona, PersonaHistoryEntry, PersonaProposal, PersonaReview } from "../db/generated/client";
import { PersonaNotFound } from "./errors";
import type { EvidenceItem, HistoryEntry, PendingProposal, PersonaState, ReviewEntry } from "./types";

export const DEFAULT_ROLE = "Learning partner";

/** An enum value as the contract spells it ("NO_CHANGE" → "no_change"). */
export const wire = <T extends string>(value: T) => value.toLowerCase() as Lowercase<T>;
/** A contract value as the database's enum spells it ("daily" → "DAILY"). */
export const stored = <T extends string>(value: T) => value.toUpperCase() as Uppercase<T>;

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export const reviewTrace = (reviewId: string) => ({ thread_id: `persona-review:${reviewId}`, root_trace_id: reviewId });

function evidenceOf(json: unknown): EvidenceItem[] {
  return Array.isArray(json) ? (json as EvidenceItem[]) : [];
}

function historyEntry(h: PersonaHistoryEntry): HistoryEntry {
  return {
    version: h.version,
    timestamp: h.createdAt.toISOString(),
    action: wire(h.action),
    actor_id: h.actorId,
    review_id: h.reviewId,
    change_trigger: { reason: h.reason },
    changes: { goals: { old: h.goalsBefore, new: h.goalsAfter } },
    evidence: evidenceOf(h.evidence),
    ...(h.traceThreadId && h.traceRootId ? { trace: { thread_id: h.traceThreadId, root_trace_id: h.traceRootId } } : {}),
  };
}

function pendingOf(p: PersonaProposal): PendingProposal {
  return {
    id: p.id,
    review_id: p.reviewId,
    reason: p.reason,
    created_at: p.createdAt.toISOString(),
    changes: { goals: { old: p.goalsOld, new: p.goalsNew } },
    evidence: evidenceOf(p.evidence),
  };
}

function reviewEntry(r: PersonaReview): ReviewEntry {
  return {
    id: r.id,
    status: wire(r.status),
    timestamp: (r.finishedAt ?? r.startedAt).toISOString(),
    reason: r.failure ?? r.reason ?? "",
    evidence_count: r.evidenceCount,
    selected_count: r.selectedCount,
    trigger: wire(r.trigger),
    trace: { thread_id: r.traceThreadId, root_trace_id: r.traceRootId },
    model: r.model,
    input_tokens: r.inputTokens,
    output_tokens: r.outputTokens,
    duration_ms: r.durationMs,
    estimated_cost_usd: r.estimatedCostUsd,
  };
}

export function stateOf(p: AccountPersona, history: PersonaHistoryEntry[], pending: PersonaProposal | null, reviews: PersonaReview[]): PersonaState {
  return {
    user_id: p.userId,
    agent_id: p.agentId,
    revision: p.revision,
    paused: p.paused,
    pending: pending ? pendingOf(pending) : null,
    persona: {
      persona_id: p.personaId,
      name: p.name,
      role: p.role,
      goals: p.goals,
      version: p.version,
      evolution_history: history.map(historyEntry),
    },
    review_state: p.reviewState ? wire(p.reviewState) : "not_reviewed",
    last_review_at: iso(p.lastReviewAt),
    reviews: reviews.map(reviewEntry),
    history_limit: p.historyLimit,
    daily_enabled: p.dailyEnabled,
    next_daily_check_at: p.dailyEnabled ? iso(p.nextDailyCheckAt) : null,
    last_daily_check_at: iso(p.lastDailyCheckAt),
    last_daily_outcome: p.lastDailyOutcome,
  };
}

/** The account's one suggestion awaiting a decision, if any. */
export function pendingProposal(tx: Tx, userId: string): Promise<PersonaProposal | null> {
  return tx.personaProposal.findFirst({ where: { userId, status: "PENDING" } });
}

/** The stored state, or null when the account has no persona row. */
export async function loadState(tx: Tx, userId: string): Promise<PersonaState | null> {
  const persona = await tx.accountPersona.findUnique({ where: { userId } });
  if (!persona) return null;
  const [history, pending, reviews] = await Promise.all([
    tx.personaHistoryEntry.findMany({ where: { userId }, orderBy: { version: "asc" } }),
    pendingProposal(tx, userId),
    tx.personaReview.findMany({ where: { userId }, orderBy: [{ startedAt: "asc" }, { id: "asc" }] }),
  ]);
  return stateOf(persona, history, pending, reviews);
}

/** The stored state; PersonaNotFound when the account has no persona row (never made, or forgotten). */
export async function requireState(tx: Tx, userId: string): Promise<PersonaState> {
  const s = await loadState(tx, userId);
  if (!s) throw new PersonaNotFound();
  return s;
}

/** The account's newest conversation names its agent; without any there is nothing to start from. */
export async function startingPoint(tx: Tx, userId: string): Promise<{ agentId: string; name: string } | null> {
  const latest = await tx.conversationMessage.findFirst({ where: { userId }, orderBy: { receivedAt: "desc" }, select: { agentId: true } });
  if (!latest) return null;
  const agent = await tx.agent.findUnique({ where: { id: latest.agentId }, select: { name: true } });
  return { agentId: latest.agentId, name: agent?.name ?? latest.agentId };
}

/** What an account with conversation evidence but no persona yet looks like (nothing stored). */
export function initialState(userId: string, agentId: string, name: string, historyLimit: number): PersonaState {
  return {
    user_id: userId,
    agent_id: agentId,
    revision: 0,
    paused: false,
    pending: null,
    persona: { persona_id: null, name, role: DEFAULT_ROLE, goals: "", version: 1, evolution_history: [] },
    review_state: "not_reviewed",
    last_review_at: null,
    reviews: [],
    history_limit: historyLimit,
    daily_enabled: false,
    next_daily_check_at: null,
    last_daily_check_at: null,
    last_daily_outcome: null,
  };
}
