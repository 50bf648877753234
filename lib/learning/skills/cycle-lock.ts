// At most one promotion cycle per agent at a time, across processes: a PostgreSQL session
// advisory lock held on a dedicated connection for the whole cycle (released on unlock, or by
// the server when the process dies). No transaction stays open while the LLM works. The
// embedded PGlite serves every connection from one backend session (where advisory locks are
// re-entrant) and is owned by one process, so an in-process guard covers it too.
import { createHash } from "node:crypto";
import pg from "pg";
import { promotionCycleRunning } from "../errors";

const LOCK_CLASS = 0x70726f63; // "proc"
const running = new Set<string>();

function lockKey(agentId: string): number {
  return createHash("sha256").update(`promotion-cycle:${agentId}`).digest().readInt32BE(0);
}

export async function withCycleLock<T>(connectionString: string, agentId: string, fn: () => Promise<T>): Promise<T> {
  if (running.has(agentId)) throw promotionCycleRunning();
  running.add(agentId);
  const client = new pg.Client({ connectionString });
  try {
    await client.connect();
    const key = lockKey(agentId);
    // Literal integers, no parameters: the simple-query protocol is one message, which the
    // embedded server's connection multiplexer cannot interleave with other clients' statements.
    const got = await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(${LOCK_CLASS}, ${key}) AS ok`);
    if (!got.rows[0]?.ok) throw promotionCycleRunning();
    try {
      return await fn();
    } finally {
      await client.query(`SELECT pg_advisory_unlock(${LOCK_CLASS}, ${key})`).catch(() => {});
    }
  } finally {
    running.delete(agentId);
    await client.end().catch(() => {});
  }
}
