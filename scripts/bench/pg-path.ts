// `npm run bench:pg-path [-- --quick]`: the figures behind the three paths that use the
// plain pg pool (pgPool in lib/db/prisma.ts) instead of Prisma: the same statement sent both
// ways from this process, at concurrency 1 and 8, on a fresh PostgreSQL database: queries per
// second and this process's CPU per query (the client-side cost every request pays, and the
// ledger pays while it holds a procedure's row lock).
// Statements: the API-key check (every agent request), a classes API page of 50 classes with
// their skills, and a single-row UPDATE (the shape of the ledger's commit).
// Target: Prisma costs at least 1.5× pg's client CPU per query for each statement (below that,
// the second path would not pay for itself); and the process's peak RSS < 1 GiB.
import { cpus, loadavg } from "node:os";
import { createPostgresDatabase } from "../../tests/helpers/server.ts";
import { applyMigrations } from "../db/migrate.ts";
import { createPrismaClient, pgPool } from "../../lib/db/prisma.ts";
import { Prisma } from "../../lib/db/generated/client";
import { createApiKey } from "../../lib/auth/api-keys.ts";
import { memoryOf, pool, QUICK, Verdicts } from "./measure.ts";

const QUERIES = QUICK ? 2_000 : 20_000;

type Statement = { name: string; sql: Prisma.Sql };

const database = await createPostgresDatabase();
try {
  await applyMigrations(database.url);
  const prisma = createPrismaClient(database.url, 8);
  const pg = pgPool(prisma);
  try {
    const key = await createApiKey(prisma, { name: "bench", scopes: ["ingest"] });
    await pg.query("INSERT INTO agents (id, name, updated_at) VALUES ('bench', 'Bench', now())");
    await pg.query(
      `INSERT INTO trajectory_classes (agent_id, user_scope, canonical_hash, signature, tools, executions, successes, distinct_queries, first_seen, last_seen)
       SELECT 'bench', '', 'h' || g, '[]', ARRAY['lookup', 'act'], 1000 - g, 900 - g, 10, now(), now() FROM generate_series(1, 500) g`,
    );
    const statements: Statement[] = [
      { name: "API-key check", sql: Prisma.sql`SELECT id, name, prefix, hash, scopes, revoked_at, last_used_at FROM api_keys WHERE prefix = ${key.row.prefix}` },
      {
        name: "classes page (50) with skills",
        sql: Prisma.sql`SELECT a.learning, c.*, k.skills FROM agents a
          LEFT JOIN LATERAL (SELECT agent_id, user_scope, canonical_hash, tools, executions, successes, distinct_queries, first_seen, last_seen
            FROM trajectory_classes WHERE agent_id = a.id ORDER BY executions DESC, canonical_hash, user_scope LIMIT ${51}::int) c ON true
          LEFT JOIN LATERAL (SELECT json_agg(json_build_object('id', s.id)) AS skills FROM skills s
            WHERE s.agent_id = a.id AND s.user_scope = c.user_scope AND s.source_canonical_hash = c.canonical_hash) k ON true
          WHERE a.id = ${"bench"} ORDER BY c.executions DESC, c.canonical_hash, c.user_scope`,
      },
      { name: "single-row UPDATE", sql: Prisma.sql`UPDATE agents SET shadow_dropped = shadow_dropped + ${0}::int WHERE id = ${"bench"}` },
    ];
    console.log(`=== plain pg vs Prisma, the same statements (${QUERIES} per figure, PostgreSQL) ===`);
    const v = new Verdicts();
    for (const s of statements) {
      for (const concurrency of [1, 8]) {
        const viaPrisma = await measureClient(QUERIES, concurrency, () => prisma.$queryRaw(s.sql));
        const viaPg = await measureClient(QUERIES, concurrency, () => pg.query(s.sql.text, s.sql.values));
        console.log(
          `${s.name}, concurrency ${concurrency}: Prisma ${viaPrisma.perSecond.toFixed(0)}/s, ${viaPrisma.cpuUs.toFixed(0)} µs CPU per query | pg ${viaPg.perSecond.toFixed(0)}/s, ${viaPg.cpuUs.toFixed(0)} µs CPU per query`,
        );
        const ratio = viaPrisma.cpuUs / viaPg.cpuUs;
        v.check(`${s.name}, concurrency ${concurrency}: Prisma's client CPU ≥ 1.5× pg's`, ratio >= 1.5, `${ratio.toFixed(2)}×`);
      }
    }
    v.peakRss(memoryOf(process.pid)?.hwmKb ?? 0);
    process.exitCode = v.failed ? 1 : 0;
    console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(" ")} on ${cpus().length} CPUs`);
  } finally {
    await prisma.$disconnect();
  }
} finally {
  await database.drop();
}

/** Queries per second and this process's CPU (user + system) per query, after a warm-up. */
async function measureClient(n: number, concurrency: number, query: () => Promise<unknown>) {
  const items = Array.from({ length: n }, (_, i) => i);
  await pool(items.slice(0, 200), concurrency, async () => void (await query()));
  const cpu = process.cpuUsage();
  const started = performance.now();
  await pool(items, concurrency, async () => void (await query()));
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { perSecond: n / seconds, cpuUs: (used.user + used.system) / n };
}
