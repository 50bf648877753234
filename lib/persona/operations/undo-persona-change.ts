// Undo the newest applied change not yet undone, at the revision the operator saw: the goals go
// back to what they were before it, as a new version. Repeated undos walk back one approved
// version each, down to v1 (lib/persona/undo.ts). A pending proposal written against the
// reverted goals is superseded. The audit row commits with the change.
import type { Db } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { actorId, auditedAccount } from "../audit";
import { PersonaConflict, personaFailure } from "../errors";
import { appendVersion, pruneHistory } from "../history";
import { lockProfileAt } from "../profile-lock";
import { closeProposal } from "../proposals";
import { bumpRevision } from "../revision";
import { pendingProposal, requireState } from "../state";
import type { PersonaState } from "../types";
import { changeToUndo } from "../undo";

export type UndoPersonaChangeInput = { userId: string; revision: number; reason?: string };

export async function undoPersonaChange(db: Db, input: UndoPersonaChangeInput, by: AuditContext): Promise<PersonaState> {
  const { userId, revision, reason } = input;
  const type = "persona_change.undone";
  try {
    const target = await auditedAccount(db, userId);
    return await db.$transaction(async (tx) => {
      await recordAudit(tx, by, { type, target, data: { revision } });
      const p = await lockProfileAt(tx, userId, revision);
      const history = await tx.personaHistoryEntry.findMany({ where: { userId }, orderBy: { version: "asc" } });
      const change = changeToUndo(history, (h) => h.action === "UNDO");
      if (!change || change.goalsAfter !== p.goals) throw new PersonaConflict("nothing to undo");
      const at = new Date();
      await appendVersion(tx, p, {
        action: "UNDO",
        actorId: actorId(by),
        reviewId: change.reviewId,
        proposalId: change.proposalId,
        reason: `Undid version ${change.version}.`,
        goalsAfter: change.goalsBefore,
        evidence: [],
        traceThreadId: change.traceThreadId,
        traceRootId: change.traceRootId,
        decisionReason: reason ?? null,
        createdAt: at,
      });
      const pending = await pendingProposal(tx, userId);
      if (pending) await closeProposal(tx, pending, "SUPERSEDED", { decidedAt: at, decidedBy: actorId(by) });
      await bumpRevision(tx, p, { goals: change.goalsBefore, version: p.version + 1, ...(pending ? { reviewState: "SUPERSEDED" } : {}) });
      await pruneHistory(tx, p);
      return requireState(tx, userId);
    });
  } catch (e) {
    throw personaFailure(e, by, type);
  }
}
