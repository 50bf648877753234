// Conversation retention reaches the copies too: a persona reflection keeps excerpts of the
// messages it cited (evidence items {id, thread_id, agent_id, timestamp, text}) in its proposal
// and, once approved, in the persona's history. When retention deletes an agent's messages older
// than a cutoff, the excerpts of those same messages (same agent, message timestamp before the
// cutoff) lose their text and are marked expired; the item's id, thread and time stay, so the
// history still says which memories a change rested on and how many.
import type { Db } from "../../db/prisma";
import { Prisma } from "../../db/generated/client";

export const QUOTING_TABLES = ["persona_proposals", "persona_history"] as const;
export type QuotingTable = (typeof QUOTING_TABLES)[number];

export type QuoteExpiry = { agentId: string; before: Date; batch: number };

/** Expires the quotes in up to `batch` rows of `table`; the number of rows changed. */
export function expireQuotes(db: Db, table: QuotingTable, { agentId, before, batch }: QuoteExpiry): Promise<number> {
  const expired = (e: Prisma.Sql) =>
    Prisma.sql`(${e}->>'agent_id' = ${agentId} AND (${e}->>'timestamp')::timestamptz < ${before} AND ${e}->'expired' IS NULL)`;
  const quoting = Prisma.sql`EXISTS (SELECT 1 FROM jsonb_array_elements(evidence) q WHERE ${expired(Prisma.sql`q`)})`;
  // Containment reads the GIN index on evidence: only rows quoting the agent are looked at.
  const quotingAgent = Prisma.sql`evidence @> jsonb_build_array(jsonb_build_object('agent_id', ${agentId}::text))`;
  const t = Prisma.raw(table);
  return db.$executeRaw`
    UPDATE ${t} SET evidence = (
      SELECT jsonb_agg(CASE WHEN ${expired(Prisma.sql`e`)} THEN e || '{"text": "", "expired": true}'::jsonb ELSE e END ORDER BY i)
      FROM jsonb_array_elements(evidence) WITH ORDINALITY AS x(e, i))
    WHERE id IN (SELECT id FROM ${t} WHERE ${quotingAgent} AND ${quoting} LIMIT ${batch}::int)`;
}
