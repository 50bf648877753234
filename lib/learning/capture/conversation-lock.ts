// An account's conversation evidence in commit order. Ingestion takes a shared transaction
// lock per account before it numbers messages (conversation_messages.seq) and holds it until
// they commit; a persona reflection's claim takes the same lock exclusively before it reads.
// So the claim waits for messages already numbered to commit, and messages numbered after it
// get higher numbers: a mark moved to the highest number read never passes an unread message.
import { Prisma } from "../../db/generated/client";
import type { Tx } from "../../db/prisma";

const LOCK_CLASS = 0x65766964; // "evid"

/** For ingestion's statement: the value is the number of accounts locked (shared), in key order. */
export const shareEvidenceLocksSql = (userIds: Prisma.Sql) => Prisma.sql`
  SELECT count(pg_advisory_xact_lock_shared(${LOCK_CLASS}::int, k)) AS n
  FROM (SELECT DISTINCT hashtext(u) AS k FROM ${userIds} AS x(u) ORDER BY 1) keys`;

/** For a reflection's claim: waits for the account's messages in flight, holds new ones off until the transaction ends. */
export async function lockEvidence(tx: Tx, userId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOCK_CLASS}::int, hashtext(${userId}))`;
}
