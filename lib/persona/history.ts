// The persona's versions: each approved change or undo appends one history row, and the
// history is kept to the profile's limit (its latest changes and reflection attempts, with
// their proposals), so one account's record stays bounded however long it runs.
import type { Tx } from "../db/prisma";
import type { AccountPersona, Prisma } from "../db/generated/client";

type NextVersion = Omit<Prisma.PersonaHistoryEntryUncheckedCreateInput, "userId" | "version" | "goalsBefore">;

/** Writes the history row of the version after the locked persona's, from its current goals. */
export async function appendVersion(tx: Tx, p: AccountPersona, entry: NextVersion): Promise<void> {
  await tx.personaHistoryEntry.create({ data: { ...entry, userId: p.userId, version: p.version + 1, goalsBefore: p.goals } });
}

/** Keeps the latest `history_limit` changes and reflection attempts (and their proposals). */
export async function pruneHistory(tx: Tx, p: AccountPersona): Promise<void> {
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
