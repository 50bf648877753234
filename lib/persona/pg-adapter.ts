// The built-in persona adapter on PostgreSQL (and PGlite). Each operation runs its gate (the
// caller's audit row) first in its own transaction, takes the account lock a forget also takes
// (lib/persona/forget-mark.ts), locks the account's persona row, checks
// the revision the operator saw (compare-and-swap) and bumps it. Reflection claims the
// account's one review slot in that transaction, calls the model outside any transaction,
// and records the result in a second one.
import { randomBytes, randomUUID } from "node:crypto";
import type { Db, Tx } from "../db/prisma";
import type { AccountPersona, Prisma } from "../db/generated/client";
import { cancelDailyChecks, firstDailyCheck, scheduleDailyCheck } from "./daily-jobs";
import type { EvidenceMessage, ReflectionOutcome, Reflector } from "./reflector";
import { DEFAULT_ROLE, initialState, loadState, reviewTrace, stored } from "./state";
import { PersonaConflict, PersonaNotFound } from "./errors";
import { changeToUndo } from "./undo";
import { accountPseudonym } from "./audit";
import { emitWebhookEvent } from "../webhooks/emit";
import { forgetMark, lockAccount } from "./forget-mark";
import type { EvidenceItem, Gate, PersonaAdapter, PersonaState, ReflectTrigger } from "./types";

export const MAX_EVIDENCE_MESSAGES = 40;
export const EXCERPT_CHARS = 500;
export const DEFAULT_HISTORY_LIMIT = 50;
/** A review still "in flight" after this long was interrupted (a crash) and may be replaced. */
export const STALE_REVIEW_MS = 10 * 60 * 1000;
export const CHANGED_DURING_REVIEW = "The persona changed while the reflection ran; reflect again.";
export const INTERRUPTED_REVIEW = "The reflection was interrupted before it finished.";

export type PgPersonaAdapterOptions = {
  reflector: Reflector;
  now?: () => Date;
  /** Retained changes and reflection attempts for profiles created from now on. */
  historyLimit?: number;
};

type Claim =
  | { kind: "done"; state: PersonaState }
  | { kind: "claimed"; reviewId: string; goals: string; version: number; messages: EvidenceMessage[]; watermark: Date; forgetMark: number };

export const excerpt = (text: string) => (text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS - 1)}…` : text);

export function createPgPersonaAdapter(database: Db, opts: PgPersonaAdapterOptions): PersonaAdapter {
  const now = opts.now ?? (() => new Date());
  const historyLimit = opts.historyLimit ?? DEFAULT_HISTORY_LIMIT;

  async function lock(tx: Tx, userId: string): Promise<AccountPersona | null> {
    await lockAccount(tx, userId);
    await tx.$queryRaw`SELECT user_id FROM account_personas WHERE user_id = ${userId} FOR UPDATE`;
    return tx.accountPersona.findUnique({ where: { userId } });
  }


  /** Writes the change and the next revision; the row is locked, so the CAS cannot miss. */
  async function bump(tx: Tx, p: AccountPersona, data: Prisma.AccountPersonaUpdateManyMutationInput) {
    const r = await tx.accountPersona.updateMany({ where: { userId: p.userId, revision: p.revision }, data: { ...data, revision: p.revision + 1 } });
    if (r.count !== 1) throw new PersonaConflict("stale revision");
  }

  async function state(tx: Tx, userId: string): Promise<PersonaState> {
    const s = await loadState(tx, userId);
    if (!s) throw new PersonaNotFound();
    return s;
  }

  /** Keeps the latest `history_limit` changes and reflection attempts (and their proposals). */
  async function prune(tx: Tx, p: AccountPersona) {
    const { userId, historyLimit: limit } = p;
    await tx.$executeRaw`
      DELETE FROM persona_history WHERE user_id = ${userId}
        AND version <= (SELECT max(version) FROM persona_history WHERE user_id = ${userId}) - ${limit}`;
    await tx.$executeRaw`
      DELETE FROM persona_reviews WHERE user_id = ${userId} AND status <> 'REVIEWING'
        AND id NOT IN (SELECT id FROM persona_reviews WHERE user_id = ${userId} ORDER BY started_at DESC, id DESC LIMIT ${limit})`;
    await tx.$executeRaw`
      DELETE FROM persona_proposals WHERE user_id = ${userId} AND status <> 'PENDING'
        AND review_id NOT IN (SELECT id FROM persona_reviews WHERE user_id = ${userId})`;
  }

  /** The account's newest conversation names its agent; without any there is nothing to start from. */
  async function startingPoint(tx: Tx, userId: string) {
    const latest = await tx.conversationMessage.findFirst({ where: { userId }, orderBy: { receivedAt: "desc" }, select: { agentId: true } });
    if (!latest) return null;
    const agent = await tx.agent.findUnique({ where: { id: latest.agentId }, select: { name: true } });
    return { agentId: latest.agentId, name: agent?.name ?? latest.agentId };
  }

  async function lockOrCreate(tx: Tx, userId: string): Promise<AccountPersona> {
    const existing = await lock(tx, userId);
    if (existing) return existing;
    const start = await startingPoint(tx, userId);
    if (!start) throw new PersonaNotFound();
    await tx.accountPersona.createMany({
      data: [{ userId, agentId: start.agentId, name: start.name, role: DEFAULT_ROLE, personaId: `prs_${randomBytes(12).toString("base64url")}`, historyLimit }],
      skipDuplicates: true,
    });
    return (await lock(tx, userId))!;
  }

  /** The locked persona at the revision the operator saw (a profile shown from evidence alone is revision 0). */
  async function lockAt(tx: Tx, userId: string, revision: number): Promise<AccountPersona> {
    const p = await lockOrCreate(tx, userId);
    if (p.revision !== revision) throw new PersonaConflict("stale revision");
    return p;
  }

  async function claim(userId: string, actorId: string, trigger: ReflectTrigger, gate: Gate): Promise<Claim> {
    return database.$transaction(async (tx) => {
      await gate(tx);
      const p = await lockOrCreate(tx, userId);
      if (p.paused) throw new PersonaConflict("paused");
      const mark = await forgetMark(tx, userId);
      if (await tx.personaProposal.count({ where: { userId, status: "PENDING" } })) throw new PersonaConflict("a suggestion is pending");
      const at = now();
      let interrupted = false;
      if (p.reviewingId) {
        if (p.reviewingSince && at.getTime() - p.reviewingSince.getTime() < STALE_REVIEW_MS) throw new PersonaConflict("a reflection is running");
        await tx.personaReview.updateMany({
          where: { id: p.reviewingId, status: "REVIEWING" },
          data: { status: "FAILED", failure: INTERRUPTED_REVIEW, finishedAt: at },
        });
        interrupted = true;
      }
      const where: Prisma.ConversationMessageWhereInput = {
        userId,
        role: "user",
        ...(p.evidenceWatermark ? { receivedAt: { gt: p.evidenceWatermark } } : {}),
      };
      const found = await tx.conversationMessage.aggregate({ where, _count: { _all: true }, _max: { receivedAt: true } });
      if (found._count._all === 0) {
        if (!interrupted) return { kind: "done", state: { ...(await state(tx, userId)), notice: "no_new_evidence" } };
        await bump(tx, p, { reviewState: "FAILED", reviewingId: null, reviewingSince: null });
        return { kind: "done", state: await state(tx, userId) };
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
      await bump(tx, p, { reviewState: "REVIEWING", reviewingId: reviewId, reviewingSince: at });
      const messages = rows.reverse().map((m, i) => ({
        ref: `m${i + 1}`,
        id: m.messageId,
        threadId: m.threadId,
        agentId: m.agentId,
        timestamp: m.timestamp,
        text: excerpt(m.text),
      }));
      return { kind: "claimed", reviewId, goals: p.goals, version: p.version, messages, watermark: found._max.receivedAt!, forgetMark: mark };
    });
  }

  async function finish(userId: string, c: Extract<Claim, { kind: "claimed" }>, outcome: ReflectionOutcome): Promise<PersonaState> {
    return database.$transaction(async (tx) => {
      const p = await lock(tx, userId);
      // Forgotten since the claim: the forget deleted the review and the persona under this lock,
      // and a persona there now is a new one; nothing the model read is written anywhere.
      if ((await forgetMark(tx, userId)) !== c.forgetMark) throw new PersonaNotFound();
      // Paused (cancelled) or replaced while the model ran: the result is discarded.
      if (!p || p.reviewingId !== c.reviewId) return state(tx, userId);
      const at = now();
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
      if (outcome.kind === "failed" || p.version !== c.version) {
        const failure = outcome.kind === "failed" ? outcome.failure : CHANGED_DURING_REVIEW;
        await tx.personaReview.update({ where: { id: c.reviewId }, data: { ...usage, status: "FAILED", failure } });
        await bump(tx, p, { ...release, reviewState: "FAILED" });
      } else if (outcome.kind === "no_change") {
        await tx.personaReview.update({ where: { id: c.reviewId }, data: { ...usage, status: "NO_CHANGE", reason: outcome.reason } });
        await bump(tx, p, { ...release, reviewState: "NO_CHANGE", lastReviewAt: at, evidenceWatermark: c.watermark });
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
        // The account only as its keyed pseudonym, as in audit rows; no goals or evidence text.
        await emitWebhookEvent(tx, "persona_proposal.created", {
          proposal_id: proposal.id,
          account: await accountPseudonym(database, userId),
          agent_id: p.agentId,
          review_id: c.reviewId,
        });
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
        await bump(tx, p, { ...release, reviewState: "PROPOSED", lastReviewAt: at, evidenceWatermark: c.watermark });
      }
      await prune(tx, p);
      return state(tx, userId);
    });
  }

  return {
    async view(userId, gate) {
      return database.$transaction(async (tx) => {
        await gate(tx);
        const stored = await loadState(tx, userId);
        if (stored) return stored;
        const start = await startingPoint(tx, userId);
        return start ? initialState(userId, start.agentId, start.name, historyLimit) : null;
      });
    },

    async reflect(userId, { actorId, trigger, gate }) {
      const c = await claim(userId, actorId, trigger, gate);
      if (c.kind === "done") return c.state;
      const outcome = await opts.reflector.reflect({ goals: c.goals, messages: c.messages }).catch(
        (): ReflectionOutcome => ({
          kind: "failed",
          failure: "The reflection could not run.",
          usage: { model: "unknown", inputTokens: null, outputTokens: null, durationMs: 0, estimatedCostUsd: null },
        }),
      );
      return finish(userId, c, outcome);
    },

    async decide(userId, { proposalId, revision, accept, actorId, gate, reason }) {
      return database.$transaction(async (tx) => {
        await gate(tx);
        const p = await lockAt(tx, userId, revision);
        const pending = await tx.personaProposal.findFirst({ where: { userId, status: "PENDING" } });
        if (!pending || pending.id !== proposalId) throw new PersonaConflict("no such pending suggestion");
        // Paused means no decision either way (the reference let Dismiss through: gap 25).
        if (p.paused) throw new PersonaConflict("paused");
        const at = now();
        const decided = { decidedAt: at, decidedBy: actorId, decisionReason: reason ?? null };
        if (!accept) {
          await tx.personaProposal.update({ where: { id: pending.id }, data: { ...decided, status: "DISMISSED" } });
          await tx.personaReview.updateMany({ where: { id: pending.reviewId }, data: { status: "DISMISSED" } });
          await bump(tx, p, { reviewState: "DISMISSED" });
          return state(tx, userId);
        }
        if (pending.baseVersion !== p.version || pending.goalsOld !== p.goals) throw new PersonaConflict("the suggestion is out of date");
        const trace = reviewTrace(pending.reviewId);
        await tx.personaHistoryEntry.create({
          data: {
            userId,
            version: p.version + 1,
            action: "APPLIED",
            actorId,
            reviewId: pending.reviewId,
            proposalId: pending.id,
            reason: pending.reason,
            goalsBefore: p.goals,
            goalsAfter: pending.goalsNew,
            evidence: pending.evidence as Prisma.InputJsonValue,
            traceThreadId: trace.thread_id,
            traceRootId: trace.root_trace_id,
            decisionReason: reason ?? null,
            createdAt: at,
          },
        });
        await tx.personaProposal.update({ where: { id: pending.id }, data: { ...decided, status: "APPROVED" } });
        await tx.personaReview.updateMany({ where: { id: pending.reviewId }, data: { status: "APPROVED" } });
        await bump(tx, p, { goals: pending.goalsNew, version: p.version + 1, reviewState: "APPROVED" });
        await prune(tx, p);
        return state(tx, userId);
      });
    },

    async pause(userId, { revision, paused, gate }) {
      return database.$transaction(async (tx) => {
        await gate(tx);
        const p = await lockAt(tx, userId, revision);
        // Pausing cancels a reflection in flight: its result will be discarded.
        const cancel = paused && p.reviewingId;
        if (cancel) {
          await tx.personaReview.updateMany({ where: { id: p.reviewingId!, status: "REVIEWING" }, data: { status: "CANCELLED", finishedAt: now() } });
        }
        await bump(tx, p, { paused, ...(cancel ? { reviewingId: null, reviewingSince: null, reviewState: "CANCELLED" } : {}) });
        return state(tx, userId);
      });
    },

    async undo(userId, { revision, actorId, gate, reason }) {
      return database.$transaction(async (tx) => {
        await gate(tx);
        const p = await lockAt(tx, userId, revision);
        const history = await tx.personaHistoryEntry.findMany({ where: { userId }, orderBy: { version: "asc" } });
        const change = changeToUndo(history, (h) => h.action === "UNDO");
        if (!change || change.goalsAfter !== p.goals) throw new PersonaConflict("nothing to undo");
        const at = now();
        await tx.personaHistoryEntry.create({
          data: {
            userId,
            version: p.version + 1,
            action: "UNDO",
            actorId,
            reviewId: change.reviewId,
            proposalId: change.proposalId,
            reason: `Undid version ${change.version}.`,
            goalsBefore: p.goals,
            goalsAfter: change.goalsBefore,
            evidence: [],
            traceThreadId: change.traceThreadId,
            traceRootId: change.traceRootId,
            decisionReason: reason ?? null,
            createdAt: at,
          },
        });
        // A pending suggestion was written against the goals being reverted.
        const pending = await tx.personaProposal.findFirst({ where: { userId, status: "PENDING" } });
        if (pending) {
          await tx.personaProposal.update({ where: { id: pending.id }, data: { status: "SUPERSEDED", decidedAt: at, decidedBy: actorId } });
          await tx.personaReview.updateMany({ where: { id: pending.reviewId }, data: { status: "SUPERSEDED" } });
        }
        await bump(tx, p, { goals: change.goalsBefore, version: p.version + 1, ...(pending ? { reviewState: "SUPERSEDED" } : {}) });
        await prune(tx, p);
        return state(tx, userId);
      });
    },

    async schedule(userId, { revision, dailyEnabled, gate }) {
      return database.$transaction(async (tx) => {
        await gate(tx);
        const p = await lockAt(tx, userId, revision);
        await bump(tx, p, { dailyEnabled, ...(dailyEnabled ? {} : { nextDailyCheckAt: null }) });
        if (dailyEnabled) await scheduleDailyCheck(tx, userId, firstDailyCheck(p.lastReviewAt, now()));
        else await cancelDailyChecks(tx, userId);
        return state(tx, userId);
      });
    },
  };
}
