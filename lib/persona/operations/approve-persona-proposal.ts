// Approve the pending proposal the operator saw (at `revision`): its goals become the next
// persona version, with the proposal's evidence in the history.
import type { Db } from "../../db/prisma";
import type { AuditContext } from "../../audit/record";
import type { PersonaState } from "../types";
import { actorId, audited } from "./audited";

/** `reason`: optional; stored on the proposal and the new version, kept out of the audit row (it may quote goals). */
export type PersonaDecisionInput = { userId: string; revision: number; proposalId: string; reason?: string };

export function approvePersonaProposal(database: Db, input: PersonaDecisionInput, by: AuditContext): Promise<PersonaState> {
  const { userId, revision, proposalId, reason } = input;
  return audited(database, by, { userId, event: { type: "persona_proposal.approved", data: { revision, proposal_id: proposalId } } }, (adapter, gate) =>
    adapter.decide(userId, { proposalId, revision, accept: true, actorId: actorId(by), gate, reason }),
  );
}
