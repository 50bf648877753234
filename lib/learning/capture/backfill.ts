// Rehashes stored runs that have no trajectory identity yet or one from an older rule version,
// and rebuilds the class statistics of every class that lost or gained runs.
import type { Db, Tx } from "../../db/prisma";
import { Prisma } from "../../db/generated/client";
import { CANONICAL_VERSION, canonicalIdentity, type StepLike } from "./canonical";

export type BackfillReport = { examined: number; rehashed: number; hashChanged: number; classesRebuilt: number };

type Row = { id: string; agent_id: string; user_scope: string; steps: unknown; canonical_hash: string | null };

// The [agent_id, user_scope, canonical_hash] keys (a JSON array) whose statistics are rebuilt
// from the runs themselves (deleted first; a class left with no runs disappears).
const rebuildSql = (keysJson: string) => {
  const keys = Prisma.sql`SELECT k->>0 AS agent_id, k->>1 AS user_scope, k->>2 AS canonical_hash FROM jsonb_array_elements(${keysJson}::jsonb) AS k`;
  return [
    Prisma.sql`DELETE FROM trajectory_class_queries t USING (${keys}) k WHERE (t.agent_id, t.user_scope, t.canonical_hash) = (k.agent_id, k.user_scope, k.canonical_hash)`,
    Prisma.sql`DELETE FROM trajectory_class_days t USING (${keys}) k WHERE (t.agent_id, t.user_scope, t.canonical_hash) = (k.agent_id, k.user_scope, k.canonical_hash)`,
    Prisma.sql`DELETE FROM trajectory_classes t USING (${keys}) k WHERE (t.agent_id, t.user_scope, t.canonical_hash) = (k.agent_id, k.user_scope, k.canonical_hash)`,
    Prisma.sql`INSERT INTO trajectory_class_queries (agent_id, user_scope, canonical_hash, normalized_query, first_seen)
     SELECT w.agent_id, w.user_scope, w.canonical_hash, w.normalized_query, min(w.created_at)
     FROM workflows w JOIN (${keys}) k USING (agent_id, user_scope, canonical_hash)
     WHERE w.normalized_query <> '' GROUP BY 1, 2, 3, 4`,
    Prisma.sql`INSERT INTO trajectory_class_days (agent_id, user_scope, canonical_hash, day, executions, successes)
     SELECT w.agent_id, w.user_scope, w.canonical_hash, (w.created_at AT TIME ZONE 'UTC')::date, count(*)::int,
       (count(*) FILTER (WHERE w.outcome = 'SUCCESS'))::int
     FROM workflows w JOIN (${keys}) k USING (agent_id, user_scope, canonical_hash) GROUP BY 1, 2, 3, 4`,
    Prisma.sql`INSERT INTO trajectory_classes (agent_id, user_scope, canonical_hash, signature, tools, executions, successes,
       distinct_queries, first_seen, last_seen)
     SELECT g.agent_id, g.user_scope, g.canonical_hash, g.signature,
       ARRAY(SELECT u.unit ->> 'tool' FROM jsonb_array_elements(g.signature) WITH ORDINALITY AS u(unit, n) ORDER BY u.n),
       g.executions, g.successes, g.distinct_queries, g.first_seen, g.last_seen
     FROM (
       SELECT w.agent_id, w.user_scope, w.canonical_hash,
         (array_agg(w.canonical_signature ORDER BY w.created_at))[1] AS signature,
         count(*)::int AS executions, (count(*) FILTER (WHERE w.outcome = 'SUCCESS'))::int AS successes,
         (count(DISTINCT w.normalized_query) FILTER (WHERE w.normalized_query <> ''))::int AS distinct_queries,
         min(w.created_at) AS first_seen, max(w.created_at) AS last_seen
       FROM workflows w JOIN (${keys}) k USING (agent_id, user_scope, canonical_hash) GROUP BY 1, 2, 3
     ) g`,
  ];
};

export async function backfillHashes(
  db: Db,
  opts: { dryRun?: boolean; batchSize?: number; log?: (line: string) => void } = {},
): Promise<BackfillReport> {
  const batchSize = opts.batchSize ?? 500;
  const report: BackfillReport = { examined: 0, rehashed: 0, hashChanged: 0, classesRebuilt: 0 };
  let after: [string, string] = ["", ""];
  for (;;) {
    const rows = await db.$queryRaw<Row[]>`
      SELECT id, agent_id, user_scope, steps, canonical_hash FROM workflows
      WHERE (canonical_version IS NULL OR canonical_version < ${CANONICAL_VERSION}::int) AND (agent_id, id) > (${after[0]}::text, ${after[1]}::text)
        -- A forgotten or expired run has no steps to rehash from: it keeps the identity it was counted under.
        AND forgotten_at IS NULL AND expired_at IS NULL
      ORDER BY agent_id, id LIMIT ${batchSize}::int`;
    if (rows.length === 0) break;
    after = [rows[rows.length - 1].agent_id, rows[rows.length - 1].id];
    report.examined += rows.length;
    const updates = rows.map((r) => {
      const identity = canonicalIdentity(Array.isArray(r.steps) ? (r.steps as StepLike[]) : []);
      return { row: r, identity };
    });
    const keys = new Map<string, [string, string, string]>();
    for (const { row, identity } of updates) {
      if (row.canonical_hash !== identity.hash) report.hashChanged += 1;
      for (const h of [row.canonical_hash, identity.hash]) {
        if (h) keys.set(JSON.stringify([row.agent_id, row.user_scope, h]), [row.agent_id, row.user_scope, h]);
      }
    }
    report.rehashed += rows.length;
    report.classesRebuilt += keys.size;
    opts.log?.(`${opts.dryRun ? "would rehash" : "rehashed"} ${report.rehashed} runs so far (${report.hashChanged} changed class)`);
    if (opts.dryRun) continue;
    await db.$transaction(
      async (tx) => {
        // Ingestion upserts class rows in the same statement that inserts runs: holding this lock
        // until commit makes a concurrent ingestion either finish before the rebuild reads the
        // runs or add its runs on top of the rebuilt rows afterwards.
        await tx.$executeRaw`LOCK TABLE trajectory_classes IN SHARE ROW EXCLUSIVE MODE`;
        const changes = updates.map(({ row, identity }) => ({
          id: row.id,
          signature: identity.signature,
          hash: identity.hash,
          version: identity.version,
          step_count: identity.stepCount,
        }));
        await tx.$executeRaw`
          UPDATE workflows w SET canonical_signature = x.signature, canonical_hash = x.hash,
            canonical_version = x.version, step_count = x.step_count
          FROM jsonb_to_recordset(${JSON.stringify(changes)}::jsonb) AS x(id text, signature jsonb, hash text, version int, step_count int)
          WHERE w.id = x.id`;
        await rebuildClasses(tx, [...keys.values()]);
      },
      { timeout: 120_000 },
    );
  }
  return report;
}

/** Rebuilds the statistics of the [agent_id, user_scope, canonical_hash] classes from their runs. */
export async function rebuildClasses(tx: Tx, keys: [string, string, string][]) {
  if (keys.length === 0) return;
  for (const sql of rebuildSql(JSON.stringify(keys))) await tx.$executeRaw(sql);
}
