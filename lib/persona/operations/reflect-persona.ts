// Reflect now (an operator) or a due daily check (the worker): read the account's new messages
// and, if the goals should change, leave one proposal awaiting approval. The audit row commits
// with the review claim; the model runs outside any transaction, and its result is recorded in
// a second one together with the persona_proposal.created webhook (lib/persona/reflection.ts).
import type { Db } from "../../db/prisma";
import { recordAudit, type AuditContext } from "../../audit/record";
import { emitWebhookEvent } from "../../webhooks/emit";
import { actorId, auditedAccount } from "../audit";
import { personaFailure } from "../errors";
import { reflectorFromEnv } from "../llm-reflector";
import { claimReflection, finishReflection, reflectOn } from "../reflection";
import { requireState } from "../state";
import type { PersonaState, ReflectTrigger } from "../types";

export type ReflectPersonaInput = { userId: string; trigger: ReflectTrigger };

export async function reflectPersona(db: Db, input: ReflectPersonaInput, by: AuditContext): Promise<PersonaState> {
  const { userId, trigger } = input;
  const type = "persona_reflection.requested";
  try {
    const target = await auditedAccount(db, userId);
    const claim = await db.$transaction(async (tx) => {
      await recordAudit(tx, by, { type, target, data: { trigger } });
      return claimReflection(tx, userId, actorId(by), trigger);
    });
    if (claim.kind === "done") return claim.state;
    const outcome = await reflectOn(reflectorFromEnv(), claim);
    return await db.$transaction(async (tx) => {
      const proposed = await finishReflection(tx, claim, outcome);
      // The account only as its keyed pseudonym, as in audit rows; no goals or evidence text.
      if (proposed) {
        await emitWebhookEvent(tx, "persona_proposal.created", { proposal_id: proposed.proposalId, account: target.id, agent_id: proposed.agentId, review_id: claim.reviewId });
      }
      return requireState(tx, userId);
    });
  } catch (e) {
    throw personaFailure(e, by, type);
  }
}
