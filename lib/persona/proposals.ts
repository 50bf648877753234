// The account's pending suggestion as a decision sees it: found at the revision the operator
// saw, and closed together with the reflection that made it (approved, dismissed, or superseded
// by an undo of the goals it was written against).
import type { Tx } from "../db/prisma";
import type { AccountPersona, PersonaProposal } from "../db/generated/client";
import { PersonaConflict } from "./errors";
import { lockProfileAt } from "./profile-lock";
import { pendingProposal } from "./state";

/** The locked persona and the pending suggestion the operator decides on; while paused there is no decision either way. */
export async function lockDecision(tx: Tx, input: { userId: string; revision: number; proposalId: string }): Promise<{ p: AccountPersona; pending: PersonaProposal }> {
  const p = await lockProfileAt(tx, input.userId, input.revision);
  const pending = await pendingProposal(tx, input.userId);
  if (!pending || pending.id !== input.proposalId) throw new PersonaConflict("no such pending suggestion");
  if (p.paused) throw new PersonaConflict("paused");
  return { p, pending };
}

/** Closes the suggestion and its reflection with one status; `decisionReason` is the admin's own words, when given. */
export async function closeProposal(
  tx: Tx,
  proposal: PersonaProposal,
  status: "APPROVED" | "DISMISSED" | "SUPERSEDED",
  decided: { decidedAt: Date; decidedBy: string; decisionReason?: string | null },
): Promise<void> {
  await tx.personaProposal.update({ where: { id: proposal.id }, data: { ...decided, status } });
  await tx.personaReview.updateMany({ where: { id: proposal.reviewId }, data: { status } });
}
