// At most one promotion cycle per agent at a time, across processes: a PostgreSQL session
// advisory lock held on one connection of the caller's database pool for the whole cycle
// (released on unlock, or by the server when the process dies). No transaction stays open while
// the LLM works. The embedded PGlite serves every connection from one backend session (where
// advisory locks are re-entrant) and is owned by one process, so an in-process guard per
// database covers it too.
import { createHash } from "node:crypto";
import type pg from "pg";
import { pgPool, type Db } from "../../db/prisma";
import { promotionCycleRunning } from "../errors";

const LOCK_CLASS = 0x70726f63; // "proc"
/** Cycles running in this process, by database (its connection string) and agent. */
const running = new Set<string>();

function lockKey(agentId: string): number {
  return createHash("sha256").update(`promotion-cycle:${agentId}`).digest().readInt32BE(0);
}

export async function withCycleLock<T>(db: Db, agentId: string, fn: () => Promise<T>): Promise<T> {
  const pool = pgPool(db);
  const guard = `${pool.options.connectionString ?? ""}\u0000${agentId}`;
  if (running.has(guard)) throw promotionCycleRunning();
  running.add(guard);
  let client: pg.PoolClient | undefined;
  let broken = false;
  try {
    client = await pool.connect();
    const key = lockKey(agentId);
    // Literal integers, no parameters: the simple-query protocol is one message, which the
    // embedded server's connection multiplexer cannot interleave with other clients' statements.
    const got = await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(${LOCK_CLASS}, ${key}) AS ok`);
    if (!got.rows[0]?.ok) throw promotionCycleRunning();
    try {
      return await fn();
    } finally {
      // A connection that could not unlock goes away with its lock rather than back to the pool.
      await client.query(`SELECT pg_advisory_unlock(${LOCK_CLASS}, ${key})`).catch(() => (broken = true));
    }
  } finally {
    running.delete(guard);
    client?.release(broken);
  }
}
