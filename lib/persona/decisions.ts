// The admins' decisions on one account's persona for the activity list: every suggestion
// approved or dismissed (with its goals and the reason given) and the reasons given for
// approving or undoing each version. Read after the audited profile view; private like it.
import type { Db } from "../db/prisma";
import { wire } from "./state";
import type { DecidedProposal, PersonaDecisions } from "./types";

export async function personaDecisions(database: Db, userId: string): Promise<PersonaDecisions> {
  const [proposals, notes] = await Promise.all([
    database.personaProposal.findMany({ where: { userId, status: { in: ["APPROVED", "DISMISSED"] } }, orderBy: { createdAt: "asc" } }),
    database.personaHistoryEntry.findMany({ where: { userId, decisionReason: { not: null } }, select: { version: true, decisionReason: true } }),
  ]);
  return {
    proposals: Object.fromEntries(
      proposals.map((p): [string, DecidedProposal] => [
        p.reviewId,
        {
          proposal_id: p.id,
          review_id: p.reviewId,
          status: wire(p.status) as DecidedProposal["status"],
          decided_at: p.decidedAt?.toISOString() ?? null,
          decided_by: p.decidedBy,
          decision_reason: p.decisionReason,
          changes: { goals: { old: p.goalsOld, new: p.goalsNew } },
        },
      ]),
    ),
    notes: Object.fromEntries(notes.map((n) => [n.version, n.decisionReason!])),
  };
}
