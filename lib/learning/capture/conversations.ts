// Conversation messages (the evidence persona reflection reads), idempotent on message_id. One
// statement checks the agent is writable (its row key-share-locked, so a deletion's marking waits
// for it or it sees the mark) and inserts, under the accounts' evidence locks (./conversation-lock.ts).
// Through the plain pg pool (queryRows): Prisma's $queryRaw serialized the messages' JSON
// parameter and parsed it back on every statement, OTLP assembly's once per claim and agent
// (docs/benchmarks.md#otlp).
import { createHash } from "node:crypto";
import { Prisma } from "../../db/generated/client";
import { queryRows, type Db } from "../../db/prisma";
import type { ConversationBody } from "./schemas";
import { newId } from "../../db/row-ids";
import { agentNotFound } from "../errors";
import { assertAgentWritable } from "../agents/writable";
import { shareEvidenceLocksSql } from "./conversation-lock";

/** A message without an id gets one derived from what identifies it, so re-sending it is a no-op. */
function derivedMessageId(threadId: string, timestamp: string, role: string, text: string): string {
  const textHash = createHash("sha256").update(text).digest("hex");
  const at = new Date(timestamp).toISOString();
  return "m_" + createHash("sha256").update([threadId, at, role, textHash].join("\u0000")).digest("hex").slice(0, 32);
}


/** Stores a thread's messages. A message already stored counts as a duplicate. */
export async function ingestConversation(db: Db, agentId: string, c: ConversationBody): Promise<{ stored: number; duplicates: number }> {
  return ingestConversations(db, agentId, [c]);
}

/** Stores the messages of several threads in one statement (OTLP assembly: a batch of traces); counts are totals. */
export async function ingestConversations(db: Db, agentId: string, cs: ConversationBody[]): Promise<{ stored: number; duplicates: number }> {
  const rows = new Map<string, object>();
  for (const c of cs) {
    for (const m of c.messages) {
      const messageId = m.message_id ?? derivedMessageId(c.thread_id, m.timestamp, m.role, m.text);
      const key = `${c.thread_id}\u0000${messageId}`;
      if (rows.has(key)) continue;
      rows.set(key, {
        id: newId(),
        thread_id: c.thread_id,
        user_id: c.user_id,
        root_trace_id: c.root_trace_id ?? null,
        message_id: messageId,
        role: m.role,
        text: m.text,
        timestamp: m.timestamp,
      });
    }
  }
  const userIds = [...new Set(cs.map((c) => c.user_id))];
  // Numbered in each thread's time order: reflection reads evidence oldest first by number.
  // The locks and the guard are uncorrelated subqueries of the INSERT's condition: both are
  // evaluated before its first row, so before any message is numbered.
  const [row] = await queryRows<{ stored: number }>(
    db,
    Prisma.sql`
    WITH guard AS (
      SELECT 1 FROM agents WHERE id = ${agentId}::text AND deleting_at IS NULL FOR KEY SHARE
    ),
    ins AS (
      INSERT INTO conversation_messages (id, agent_id, thread_id, user_id, root_trace_id, message_id, role, text, timestamp)
      SELECT id, ${agentId}::text, thread_id, user_id, root_trace_id, message_id, role, text, timestamp
      FROM jsonb_to_recordset(${JSON.stringify([...rows.values()])}::jsonb) AS x(id text, thread_id text, user_id text, root_trace_id text,
        message_id text, role text, text text, timestamp timestamptz)
      WHERE EXISTS (SELECT 1 FROM guard) AND (${shareEvidenceLocksSql(Prisma.sql`unnest(${userIds}::text[])`)}) >= 0
      ORDER BY thread_id, timestamp, message_id
      ON CONFLICT (agent_id, thread_id, message_id) DO NOTHING
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM ins)::int AS stored FROM guard`,
    "conversation_insert",
  );
  if (!row) {
    // The guard found no writable agent: refused as every write about it is (unknown, or being deleted).
    await assertAgentWritable(db, agentId);
    throw agentNotFound(agentId);
  }
  const sent = cs.reduce((n, c) => n + c.messages.length, 0);
  return { stored: row.stored, duplicates: sent - row.stored };
}

