// Shapes one account's canonical state for the page: a single activity timeline (the pending
// suggestion first, then changes and reflections newest first, ties keeping the later list
// entry first) and the summary strip's figures. Pure and tolerant of partial or malformed
// states, so a host's odd profile never breaks the page.
import { changeToUndo } from "./undo";
import type { PersonaDecisions } from "./types";

export type Tone = "green" | "blue" | "amber" | "red" | "gray";
export type Signal = "good" | "bad" | "warn" | "";
export type RowKind = "proposal" | "change" | "undo" | "review";

export type MonitorRow = {
  kind: RowKind;
  key: string;
  /** Where the full entry lives in the state: `pending`, `persona.evolution_history[i]` or `reviews[i]`. */
  source: { list: "pending" | "history" | "reviews"; index: number };
  timestamp: string | null;
  kindLabel: string;
  version: number | null;
  summary: string;
  evidenceCount: number | null;
  actor: string;
  reference: string;
  statusLabel: string;
  tone: Tone;
  signal: Signal;
  tags: string[];
};

export type MonitorView = {
  rows: MonitorRow[];
  pending: boolean;
  changes: number;
  undos: number;
  reviews: number;
  failedReviews: number;
  proposals: number;
  evidence: number;
  status: string;
  statusSignal: Signal;
  chips: { tag: string; label: string; count: number }[];
};

export const REVIEW_STATUS: Record<string, { label: string; tone: Tone; signal: Signal }> = {
  proposed: { label: "Proposed", tone: "blue", signal: "" },
  approved: { label: "Approved", tone: "green", signal: "good" },
  applied: { label: "Approved", tone: "green", signal: "good" },
  no_change: { label: "No change", tone: "gray", signal: "" },
  dismissed: { label: "Dismissed", tone: "gray", signal: "" },
  superseded: { label: "Superseded", tone: "gray", signal: "" },
  cancelled: { label: "Cancelled", tone: "gray", signal: "" },
  failed: { label: "Failed", tone: "red", signal: "bad" },
  reviewing: { label: "Reviewing", tone: "blue", signal: "" },
};

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (v === null || v === undefined ? "" : String(v));

function time(v: unknown): { iso: string | null; sort: number } {
  if (typeof v !== "string" || !v) return { iso: null, sort: 0 };
  const t = Date.parse(v);
  return Number.isNaN(t) ? { iso: null, sort: 0 } : { iso: new Date(t).toISOString(), sort: t };
}

export function reviewStatus(status: unknown) {
  const s = str(status).trim().toLowerCase();
  return REVIEW_STATUS[s] ?? { label: s ? s[0].toUpperCase() + s.slice(1).replace(/_/g, " ") : "Unknown", tone: "gray" as Tone, signal: "" as Signal };
}

/** `decisions`: the admins' decided suggestions and reasons (lib/persona/decisions.ts), shown on their rows. */
export function buildPersonaView(profile: unknown, decisions: PersonaDecisions = { proposals: {}, notes: {} }): MonitorView {
  const state = obj(profile);
  const persona = obj(state.persona);
  const pendingRaw = obj(state.pending);
  const pending = Object.keys(pendingRaw).length ? pendingRaw : null;
  const history = list(persona.evolution_history).map(obj);
  const reviews = list(state.reviews).map(obj);

  const sorted: (MonitorRow & { sort: number; order: number })[] = [];
  history.forEach((entry, index) => {
    const undo = entry.action === "undo";
    const t = time(entry.timestamp);
    const version = typeof entry.version === "number" ? entry.version : null;
    const note = version !== null ? decisions.notes[version] : undefined;
    const trigger = str(obj(entry.change_trigger).reason);
    sorted.push({
      kind: undo ? "undo" : "change",
      key: `change-${index}`,
      source: { list: "history", index },
      timestamp: t.iso,
      sort: t.sort,
      order: index,
      kindLabel: undo ? "Change undone" : "Approach updated",
      version,
      summary: note ? `${trigger} · Reason: ${note}` : trigger,
      evidenceCount: list(entry.evidence).length,
      actor: str(entry.actor_id),
      reference: str(entry.review_id),
      statusLabel: undo ? "Reverted" : "Applied",
      tone: undo ? "blue" : "green",
      signal: undo ? "" : "good",
      tags: ["change"],
    });
  });
  reviews.forEach((review, index) => {
    const st = reviewStatus(review.status);
    const t = time(review.timestamp);
    const decided = decisions.proposals[str(review.id)];
    sorted.push({
      kind: "review",
      key: `review-${index}`,
      source: { list: "reviews", index },
      timestamp: t.iso,
      sort: t.sort,
      order: index,
      kindLabel: decided ? (decided.status === "approved" ? "Suggestion approved" : "Suggestion dismissed") : "Reflection",
      version: null,
      summary: decided?.decision_reason ? `Reason: ${decided.decision_reason}` : str(review.reason),
      evidenceCount: typeof review.evidence_count === "number" ? review.evidence_count : null,
      actor: str(review.trigger),
      reference: "",
      statusLabel: st.label,
      tone: st.tone,
      signal: st.signal,
      tags: st.signal === "bad" ? ["review", "failed"] : decided ? ["review", "decision"] : ["review"],
    });
  });
  // Newest first; equal or missing timestamps keep the later list entry first (a stable sort).
  sorted.sort((a, b) => b.sort - a.sort || b.order - a.order);
  const rows: MonitorRow[] = sorted.map(({ sort: _s, order: _o, ...row }) => row);
  if (pending) {
    rows.unshift({
      kind: "proposal",
      key: "pending",
      source: { list: "pending", index: 0 },
      timestamp: time(pending.created_at ?? state.last_review_at).iso,
      kindLabel: "Suggested change",
      version: null,
      summary: str(pending.reason),
      evidenceCount: list(pending.evidence).length,
      actor: "Reflection",
      reference: str(pending.id),
      statusLabel: "Awaiting approval",
      tone: "amber",
      signal: "warn",
      tags: ["pending"],
    });
  }

  const changes = rows.filter((r) => r.kind === "change").length;
  const undos = rows.filter((r) => r.kind === "undo").length;
  const failedReviews = rows.filter((r) => r.kind === "review" && r.signal === "bad").length;
  const reviewState = str(state.review_state);
  const [status, statusSignal]: [string, Signal] = state.paused
    ? ["Paused", "warn"]
    : pending
      ? ["Awaiting decision", "warn"]
      : reviewState === "failed"
        ? ["Last reflection failed", "bad"]
        : reviewState === "reviewing"
          ? ["Reviewing", ""]
          : ["Ready", "good"];
  const chips = [
    { tag: "pending", label: "Pending", count: pending ? 1 : 0 },
    { tag: "change", label: "Changes", count: changes + undos },
    { tag: "review", label: "Reflections", count: reviews.length },
    { tag: "decision", label: "Decisions", count: rows.filter((r) => r.tags.includes("decision")).length },
    { tag: "failed", label: "Failed", count: failedReviews },
  ].filter((c) => c.count > 0);
  return {
    rows,
    pending: pending !== null,
    changes,
    undos,
    reviews: reviews.length,
    failedReviews,
    proposals: reviews.filter((r) => ["proposed", "approved", "applied"].includes(str(r.status).toLowerCase())).length,
    evidence: pending ? list(pending.evidence).length : 0,
    status,
    statusSignal,
    chips,
  };
}

/** Undo is offered while an applied change is not yet undone and the goals are still its result, as the undo operation checks. */
export function canUndo(profile: unknown): boolean {
  const persona = obj(obj(profile).persona);
  const change = changeToUndo(list(persona.evolution_history).map(obj), (e) => e.action === "undo");
  return change !== null && typeof persona.goals === "string" && obj(obj(change.changes).goals).new === persona.goals;
}
