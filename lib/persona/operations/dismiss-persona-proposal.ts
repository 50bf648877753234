// Dismiss the pending proposal the operator saw (at `revision`): the goals stay as they are.
// Refused while paused. The audit row commits with the change.
import type { Db } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { actorId, auditedAccount } from "../audit";
import { personaFailure } from "../errors";
import { closeProposal, lockDecision } from "../proposals";
import { bumpRevision } from "../revision";
import { requireState } from "../state";
import type { PersonaState } from "../types";
import type { PersonaDecisionInput } from "./approve-persona-proposal";

export async function dismissPersonaProposal(db: Db, input: PersonaDecisionInput, by: AuditContext): Promise<PersonaState> {
  const { userId, revision, proposalId, reason } = input;
  const type = "persona_proposal.dismissed";
  try {
    const target = await auditedAccount(db, userId);
    return await db.$transaction(async (tx) => {
      await recordAudit(tx, by, { type, target, data: { revision, proposal_id: proposalId } });
      const { p, pending } = await lockDecision(tx, input);
      await closeProposal(tx, pending, "DISMISSED", { decidedAt: new Date(), decidedBy: actorId(by), decisionReason: reason ?? null });
      await bumpRevision(tx, p, { reviewState: "DISMISSED" });
      return requireState(tx, userId);
    });
  } catch (e) {
    throw personaFailure(e, by, type);
  }
}
