// One reflection in two steps around the model call, so no transaction stays open while the
// model thinks. The claim takes the account's one review slot with the profile locked and reads
// the new evidence; the finish, with the profile locked again, records the model's answer only
// while the slot is still this review's (a pause or a newer claim discards it) and the account
// was not forgotten meanwhile (the forget mark, ./forget-mark.ts). Goals that changed under it
// make the review a failed one rather than a suggestion against goals that are gone.
import { randomUUID } from "node:crypto";
import type { Tx } from "../db/prisma";
import type { AccountPersona, Prisma } from "../db/generated/client";
import { PersonaConflict, PersonaNotFound } from "./errors";
import { forgetMark } from "./forget-mark";
import { pruneHistory } from "./history";
import { lockOrCreateProfile, lockProfile } from "./profile-lock";
import type { EvidenceMessage, ReflectionOutcome, Reflector } from "./reflector";
import { bumpRevision } from "./revision";
import { requireState, reviewTrace, stored } from "./state";
import type { EvidenceItem, PersonaState, ReflectTrigger } from "./types";

const MAX_EVIDENCE_MESSAGES = 40;
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
      watermark: Date;
      forgetMark: number;
    };
type Claimed = Extract<ReflectionClaim, { kind: "claimed" }>;

const excerpt = (text: string) => (text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS - 1)}…` : text);

/** The account's user messages no finished reflection has read yet. */
export const newEvidence = (p: AccountPersona): Prisma.ConversationMessageWhereInput => ({
  userId: p.userId,
  role: "user",
  ...(p.evidenceWatermark ? { receivedAt: { gt: p.evidenceWatermark } } : {}),
});

/**
 * Claims the review slot (creating the profile if needed) and reads the newest evidence, or
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
  const where = newEvidence(p);
  const found = await tx.conversationMessage.aggregate({ where, _count: { _all: true }, _max: { receivedAt: true } });
  if (found._count._all === 0) {
    if (!interrupted) return { kind: "done", state: { ...(await requireState(tx, userId)), notice: "no_new_evidence" } };
    await bumpRevision(tx, p, { reviewState: "FAILED", reviewingId: null, reviewingSince: null });
    return { kind: "done", state: await requireState(tx, userId) };
  }
  const rows = await tx.conversationMessage.findMany({ where, orderBy: [{ receivedAt: "desc" }, { timestamp: "desc" }, { id: "desc" }], take: MAX_EVIDENCE_MESSAGES });
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
      evidenceCount: found._count._all,
      evidenceThreadIds: [],
      traceThreadId: trace.thread_id,
      traceRootId: trace.root_trace_id,
      startedAt: at,
    },
  });
  await bumpRevision(tx, p, { reviewState: "REVIEWING", reviewingId: reviewId, reviewingSince: at });
  const messages = rows.reverse().map((m, i) => ({
    ref: `m${i + 1}`,
    id: m.messageId,
    threadId: m.threadId,
    agentId: m.agentId,
    timestamp: m.timestamp,
    text: excerpt(m.text),
  }));
  return { kind: "claimed", userId, reviewId, goals: p.goals, version: p.version, messages, watermark: found._max.receivedAt!, forgetMark: mark };
}

/** The model's answer on the claimed evidence; a reflector that throws is a failed reflection. */
export function reflectOn(reflector: Reflector, c: Claimed): Promise<ReflectionOutcome> {
  return reflector.reflect({ goals: c.goals, messages: c.messages }).catch(
    (): ReflectionOutcome => ({
      kind: "failed",
      failure: "The reflection could not run.",
      usage: { model: "unknown", inputTokens: null, outputTokens: null, durationMs: 0, estimatedCostUsd: null },
    }),
  );
}

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
    await bumpRevision(tx, p, { ...release, reviewState: "NO_CHANGE", lastReviewAt: at, evidenceWatermark: c.watermark });
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
    await bumpRevision(tx, p, { ...release, reviewState: "PROPOSED", lastReviewAt: at, evidenceWatermark: c.watermark });
  }
  await pruneHistory(tx, p);
  return proposed;
}
