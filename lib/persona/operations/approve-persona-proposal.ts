// Approve the pending proposal the operator saw (at `revision`): its goals become the next
// persona version, with the proposal's evidence in the history. Refused while paused, and when
// the goals moved since the proposal was written. The audit row commits with the change.
import type { Db } from "../../db/prisma";
import type { Prisma } from "../../db/generated/client";
import { recordAudit, type AuditContext } from "../../audit/record";
import { actorId, auditedAccount } from "../audit";
import { PersonaConflict, personaFailure } from "../errors";
import { appendVersion, pruneHistory } from "../history";
import { closeProposal, lockDecision } from "../proposals";
import { bumpRevision } from "../revision";
import { requireState, reviewTrace } from "../state";
import type { PersonaState } from "../types";

/** `reason`: optional; stored on the proposal and the new version, kept out of the audit row (it may quote goals). */
export type PersonaDecisionInput = { userId: string; revision: number; proposalId: string; reason?: string };

export async function approvePersonaProposal(db: Db, input: PersonaDecisionInput, by: AuditContext): Promise<PersonaState> {
  const { userId, revision, proposalId, reason } = input;
  const type = "persona_proposal.approved";
  try {
    const target = await auditedAccount(db, userId);
    return await db.$transaction(async (tx) => {
      await recordAudit(tx, by, { type, target, data: { revision, proposal_id: proposalId } });
      const { p, pending } = await lockDecision(tx, input);
      const at = new Date();
      if (pending.baseVersion !== p.version || pending.goalsOld !== p.goals) throw new PersonaConflict("the suggestion is out of date");
      const trace = reviewTrace(pending.reviewId);
      await appendVersion(tx, p, {
        action: "APPLIED",
        actorId: actorId(by),
        reviewId: pending.reviewId,
        proposalId: pending.id,
        reason: pending.reason,
        goalsAfter: pending.goalsNew,
        evidence: pending.evidence as Prisma.InputJsonValue,
        traceThreadId: trace.thread_id,
        traceRootId: trace.root_trace_id,
        decisionReason: reason ?? null,
        createdAt: at,
      });
      await closeProposal(tx, pending, "APPROVED", { decidedAt: at, decidedBy: actorId(by), decisionReason: reason ?? null });
      await bumpRevision(tx, p, { goals: pending.goalsNew, version: p.version + 1, reviewState: "APPROVED" });
      await pruneHistory(tx, p);
      return requireState(tx, userId);
    });
  } catch (e) {
    throw personaFailure(e, by, type);
  }
}
