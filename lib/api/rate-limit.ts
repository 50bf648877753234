// API rate limits, held in the database so that every web process enforces one limit per key
// (docs/fleet-state.md): a GCRA (generic cell rate algorithm) state per API key, its theoretical
// arrival time, in api_key_rate_limits (UNLOGGED: a crash forgets the counters, which only
// forgives a burst). One statement per request on the plain pg pool, prepared once per
// connection; the clock is the database's, so processes on several hosts agree. The statement
// costs about one `SELECT 1` of client CPU, and the benchmarks' floor route pays it too
// (docs/fleet-state.md has the measurement).
import { Prisma } from "../db/generated/client";
import { queryRows, type Db } from "../db/prisma";

/**
 * Takes one request's share of `apiKeyId`'s allowance of `perSecond` requests per second with
 * bursts of `burst`; returns 0 when it is allowed, else the seconds to wait (at least 1).
 * Routes with different rates share the key's state: each request costs 1/perSecond of its route.
 */
export async function takeToken(database: Db, apiKeyId: string, perSecond: number, burst: number): Promise<number> {
  const interval = 1 / perSecond;
  const tolerance = burst * interval;
  // Allowed when the arrival time, pushed one interval on, stays within the tolerance of now; a
  // refused request writes nothing, and the snapshot's row (read before the statement) says how long to wait.
  const [row] = await queryRows<{ allowed: boolean; ahead: number | null }>(
    database,
    Prisma.sql`
      WITH taken AS (
        INSERT INTO api_key_rate_limits AS r (api_key_id, tat)
        VALUES (${apiKeyId}::text, now() + make_interval(secs => ${interval}::float8))
        ON CONFLICT (api_key_id) DO UPDATE SET tat = GREATEST(r.tat, now()) + make_interval(secs => ${interval}::float8)
        WHERE GREATEST(r.tat, now()) + make_interval(secs => ${interval}::float8) <= now() + make_interval(secs => ${tolerance}::float8)
        RETURNING 1
      )
      SELECT EXISTS (SELECT 1 FROM taken) AS allowed,
             (SELECT extract(epoch FROM tat - now())::float8 FROM api_key_rate_limits WHERE api_key_id = ${apiKeyId}::text) AS ahead`,
    "api_rate_limit",
  );
  if (row.allowed) return 0;
  return Math.max(1, Math.ceil((row.ahead ?? 0) + interval - tolerance));
}
