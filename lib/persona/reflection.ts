// One reflection in two steps around the model call, so no transaction stays open while the
// model thinks. The claim takes the account's one review slot with the profile locked and reads
// the new evidence; the finish, with the profile locked again, records the model's answer only
// while the slot is still this review's (a pause or a newer claim discards it) and the account
// was not forgotten meanwhile (the forget mark, ./forget-mark.ts). Goals that changed under it
// make the review a failed one rather than a suggestion against goals that are gone.
// The evidence is read oldest first, in pages the reflector sees one after another (the goals
// each page leads to are the next page's), up to a bound per reflection; the account's mark
// then moves to the last message read, so what did not fit waits for the next reflection.
import { randomUUID } from "node:crypto";
import type { Tx } from "../db/prisma";
import type { AccountPersona, Prisma } from "../db/generated/client";
import { PersonaConflict, PersonaNotFound } from "./errors";
import { lockEvidence } from "../learning/capture/conversation-lock";
import { forgetMark } from "./forget-mark";
import { pruneHistory } from "./history";
import { lockOrCreateProfile, lockProfile } from "./profile-lock";
import type { EvidenceMessage, ReflectionOutcome, ReflectionUsage, Reflector } from "./reflector";
import { bumpRevision } from "./revision";
import { requireState, reviewTrace, stored } from "./state";
import type { EvidenceItem, PersonaState, ReflectTrigger } from "./types";

/** Messages the reflector sees at once, and pages per reflection (at most 200 messages read). */
const PAGE_MESSAGES = 40;
const MAX_PAGES = 5;
const EXCERPT_CHARS = 500;
/** A review still "in flight" after this long was interrupted (a crash) and may be replaced. */
const STALE_REVIEW_MS = 10 * 60 * 1000;
const CHANGED_DURING_REVIEW = "The persona changed while the reflection ran; reflect again.";
const INTERRUPTED_REVIEW = "The reflection was interrupted before it finished.";

type ReflectionClaim =
  | { kind: "done"; state: PersonaState }
  | {
      kind: "claimed";
      userId: string;
      reviewId: string;
      goals: string;
      version: number;
      messages: EvidenceMessage[];
      /** seq of the last message read: the account's mark once the reflection finishes. */
      watermark: bigint;
      forgetMark: number;
    };
type Claimed = Extract<ReflectionClaim, { kind: "claimed" }>;

const excerpt = (text: string) => (text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS - 1)}…` : text);

/** The account's user messages no finished reflection has read yet. */
export const newEvidence = (p: AccountPersona): Prisma.ConversationMessageWhereInput => ({
  userId: p.userId,
  role: "user",
  ...(p.evidenceSeq !== null ? { seq: { gt: p.evidenceSeq } } : {}),
});

/**
 * Claims the review slot (creating the profile if needed) and reads the oldest unread evidence, or
 * answers at once ("done") when there is nothing new. Refused while paused, while a suggestion
 * awaits a decision, or while another reflection runs and is not yet stale.
 */
export async function claimReflection(tx: Tx, userId: string, actorId: string, trigger: ReflectTrigger): Promise<ReflectionClaim> {
  const p = await lockOrCreateProfile(tx, userId);
  if (p.paused) throw new PersonaConflict("paused");
  const mark = await forgetMark(tx, userId);
  if (await tx.personaProposal.count({ where: { userId, status: "PENDING" } })) throw new PersonaConflict("a suggestion is pending");
  const at = new Date();
  let interrupted = false;
  if (p.reviewingId) {
    if (p.reviewingSince && at.getTime() - p.reviewingSince.getTime() < STALE_REVIEW_MS) throw new PersonaConflict("a reflection is running");
    await tx.personaReview.updateMany({
      where: { id: p.reviewingId, status: "REVIEWING" },
      data: { status: "FAILED", failure: INTERRUPTED_REVIEW, finishedAt: at },
    });
    interrupted = true;
  }
  await lockEvidence(tx, userId);
  const rows = await tx.conversationMessage.findMany({ where: newEvidence(p), orderBy: { seq: "asc" }, take: PAGE_MESSAGES * MAX_PAGES });
  if (rows.length === 0) {
    if (!interrupted) return { kind: "done", state: { ...(await requireState(tx, userId)), notice: "no_new_evidence" } };
    await bumpRevision(tx, p, { reviewState: "FAILED", reviewingId: null, reviewingSince: null });
    return { kind: "done", state: await requireState(tx, userId) };
  }
  const reviewId = randomUUID();
  const trace = reviewTrace(reviewId);
  await tx.personaReview.create({
    data: {
      id: reviewId,
      userId,
      agentId: p.agentId,
      status: "REVIEWING",
      trigger: stored(trigger),
      actorId,
      evidenceCount: rows.length,
      evidenceThreadIds: [],
      traceThreadId: trace.thread_id,
      traceRootId: trace.root_trace_id,
      startedAt: at,
    },
  });
  await bumpRevision(tx, p, { reviewState: "REVIEWING", reviewingId: reviewId, reviewingSince: at });
  const messages = rows.map((m, i) => ({
    ref: `m${i + 1}`,
    id: m.messageId,
    threadId: m.threadId,
    agentId: m.agentId,
    timestamp: m.timestamp,
    text: excerpt(m.text),
  }));
  return { kind: "claimed", userId, reviewId, goals: p.goals, version: p.version, messages, watermark: rows[rows.length - 1].seq, forgetMark: mark };
}

/**
 * The model's answer on the claimed evidence, page by page (each page reflected on against the
 * goals the pages before led to); one changed page makes it a change with every page's
 * evidence. A page that fails, or a reflector that throws, fails the reflection.
 */
export async function reflectOn(reflector: Reflector, c: Claimed): Promise<ReflectionOutcome> {
  let goals = c.goals;
  const refs: string[] = [];
  const reasons: string[] = [];
  let usage: ReflectionUsage | null = null;
  let changed = false;
  for (let at = 0; at < c.messages.length; at += PAGE_MESSAGES) {
    const page = c.messages.slice(at, at + PAGE_MESSAGES);
    const outcome = await reflector.reflect({ goals, messages: page }).catch(
      (): ReflectionOutcome => ({
        kind: "failed",
        failure: "The reflection could not run.",
        usage: { model: usage?.model ?? "unknown", inputTokens: null, outputTokens: null, durationMs: 0, estimatedCostUsd: null },
      }),
    );
    usage = usage ? addUsage(usage, outcome.usage) : outcome.usage;
    if (outcome.kind === "failed") return { ...outcome, usage };
    if (outcome.kind === "change") {
      changed = true;
      goals = outcome.goals;
      refs.push(...outcome.evidenceRefs);
      if (!reasons.includes(outcome.reason)) reasons.push(outcome.reason);
    } else if (!changed) {
      reasons.splice(0, reasons.length, outcome.reason);
    }
  }
  return changed
    ? { kind: "change", goals, reason: reasons.join(" "), evidenceRefs: refs, usage: usage! }
    : { kind: "no_change", reason: reasons[0] ?? "", usage: usage! };
}

const sum = (a: number | null, b: number | null) => (a === null && b === null ? null : (a ?? 0) + (b ?? 0));
const addUsage = (a: ReflectionUsage, b: ReflectionUsage): ReflectionUsage => ({
  model: a.model,
  inputTokens: sum(a.inputTokens, b.inputTokens),
  outputTokens: sum(a.outputTokens, b.outputTokens),
  durationMs: a.durationMs + b.durationMs,
  estimatedCostUsd: sum(a.estimatedCostUsd, b.estimatedCostUsd),
});

/**
 * Records the outcome on the claimed review and frees the slot. Returns the suggestion it
 * proposed (with the persona's agent), or null when it proposed none or the result was discarded.
 */
export async function finishReflection(tx: Tx, c: Claimed, outcome: ReflectionOutcome): Promise<{ proposalId: string; agentId: string } | null> {
  const { userId } = c;
  const p = await lockProfile(tx, userId);
  // Forgotten since the claim: the forget deleted the review and the persona under this lock,
  // and a persona there now is a new one; nothing the model read is written anywhere.
  if ((await forgetMark(tx, userId)) !== c.forgetMark) throw new PersonaNotFound();
  // Paused (cancelled) or replaced while the model ran: the result is discarded.
  if (!p || p.reviewingId !== c.reviewId) return null;
  const at = new Date();
  const u = outcome.usage;
  const usage = {
    model: u.model,
    inputTokens: u.inputTokens,
    outputTokens: u.outputTokens,
    durationMs: Math.round(u.durationMs),
    estimatedCostUsd: u.estimatedCostUsd,
    finishedAt: at,
  };
  const release = { reviewingId: null, reviewingSince: null };
  let proposed: { proposalId: string; agentId: string } | null = null;
  if (outcome.kind === "failed" || p.version !== c.version) {
    const failure = outcome.kind === "failed" ? outcome.failure : CHANGED_DURING_REVIEW;
    await tx.personaReview.update({ where: { id: c.reviewId }, data: { ...usage, status: "FAILED", failure } });
    await bumpRevision(tx, p, { ...release, reviewState: "FAILED" });
  } else if (outcome.kind === "no_change") {
    await tx.personaReview.update({ where: { id: c.reviewId }, data: { ...usage, status: "NO_CHANGE", reason: outcome.reason } });
    await bumpRevision(tx, p, { ...release, reviewState: "NO_CHANGE", lastReviewAt: at, evidenceSeq: c.watermark });
  } else {
    const byRef = new Map(c.messages.map((m) => [m.ref, m]));
    const evidence: EvidenceItem[] = outcome.evidenceRefs.map((r) => byRef.get(r)!).map((m) => ({
      id: m.id,
      thread_id: m.threadId,
      agent_id: m.agentId,
      timestamp: m.timestamp.toISOString(),
      text: m.text,
    }));
    const proposal = await tx.personaProposal.create({
      data: {
        userId,
        reviewId: c.reviewId,
        status: "PENDING",
        reason: outcome.reason,
        goalsOld: p.goals,
        goalsNew: outcome.goals,
        evidence: evidence as unknown as Prisma.InputJsonValue,
        baseVersion: p.version,
      },
      select: { id: true },
    });
    proposed = { proposalId: proposal.id, agentId: p.agentId };
    await tx.personaReview.update({
      where: { id: c.reviewId },
      data: {
        ...usage,
        status: "PROPOSED",
        reason: outcome.reason,
        selectedCount: evidence.length,
        evidenceThreadIds: [...new Set(evidence.map((e) => e.thread_id))],
      },
    });
    await bumpRevision(tx, p, { ...release, reviewState: "PROPOSED", lastReviewAt: at, evidenceSeq: c.watermark });
  }
  await pruneHistory(tx, p);
  return proposed;
}
