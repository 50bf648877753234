// Builds a Prisma client on the pg adapter. The app's singleton (client.ts) and the
// launcher, worker, scripts and tests all get their clients here. The client's pg pool is
// reachable through pgPool() for the few hot paths where Prisma's per-query cost (a multiple of
// pg's client CPU, `npm run bench:pg-path`; docs/benchmarks.md#pg-path) is the bottleneck; they
// share its connections and its limit (queryRows sends a tagged template there). Each such
// file's header says why it pays off there; everything else uses Prisma.
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient, type Prisma } from "./generated/client";

export type Db = PrismaClient;
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

// One map per process, not per copy of this module: Next bundles it once per layer (pages,
// actions, routes) while the app's client (client.ts) is shared by all of them.
const registry = globalThis as unknown as { proctorPgPools?: WeakMap<PrismaClient, pg.Pool> };
const pools = (registry.proctorPgPools ??= new WeakMap<PrismaClient, pg.Pool>());

export function createPrismaClient(connectionString: string, poolMax = 10): PrismaClient {
  const pool = new pg.Pool({ connectionString, max: poolMax });
  const client = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  pools.set(client, pool);
  return client;
}

/** The pg pool under a client made by createPrismaClient (ended by its $disconnect). */
export function pgPool(db: Db): pg.Pool {
  const pool = pools.get(db);
  if (!pool) throw new Error("pgPool: this Prisma client was not made by createPrismaClient");
  return pool;
}

/**
 * A tagged-template statement's rows, through the plain pg pool when `q` is a client made by
 * createPrismaClient and through Prisma's $queryRaw otherwise (a transaction, a test's client).
 * For hot paths whose file header gives the figure: Prisma passes every parameter through its
 * query compiler, which costs in proportion to their size. A `name` prepares the statement once
 * per connection (its text must never vary, only its values): PostgreSQL then parses and plans
 * it once. Not on PGlite, whose connections share one session and so its prepared statements.
 */
export async function queryRows<T>(q: Db | Tx, sql: Prisma.Sql, name?: string): Promise<T[]> {
  const pool = pools.get(q as Db);
  if (!pool) return q.$queryRaw<T[]>(sql);
  const prepared = name && (await sessionPerConnection(pool)) ? name : undefined;
  return (await pool.query({ name: prepared, text: sql.text, values: sql.values })).rows as T[];
}

const ownSessions = new WeakMap<pg.Pool, Promise<boolean>>();

/** Whether each of the pool's connections is a session of its own (PostgreSQL, not PGlite). */
function sessionPerConnection(pool: pg.Pool): Promise<boolean> {
  let known = ownSessions.get(pool);
  if (!known) {
    known = pool.query<{ v: string }>("SELECT version() AS v").then(
      (r) => !r.rows[0].v.includes("PGlite"),
      (e) => {
        ownSessions.delete(pool);
        throw e;
      },
    );
    ownSessions.set(pool, known);
  }
  return known;
}
