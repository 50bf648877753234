// Dismiss the pending proposal the operator saw (at `revision`): the goals stay as they are.
import type { Db } from "../../db/prisma";
import type { AuditContext } from "../../audit/record";
import type { PersonaState } from "../types";
import type { PersonaDecisionInput } from "./approve-persona-proposal";
import { actorId, audited } from "./audited";

export function dismissPersonaProposal(database: Db, input: PersonaDecisionInput, by: AuditContext): Promise<PersonaState> {
  const { userId, revision, proposalId, reason } = input;
  return audited(database, by, { userId, event: { type: "persona_proposal.dismissed", data: { revision, proposal_id: proposalId } } }, (adapter, gate) =>
    adapter.decide(userId, { proposalId, revision, accept: false, actorId: actorId(by), gate, reason }),
  );
}
