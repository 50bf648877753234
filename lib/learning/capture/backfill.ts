// Rehashes stored runs that have no trajectory identity yet or one from an older rule version,
// and rebuilds the class statistics of every class that lost or gained runs. The same rebuild
// regroups an agent's runs when its learning scope changes (applyLearningScope).
import type { Db, Tx } from "../../db/prisma";
import { Prisma } from "../../db/generated/client";
import type { LearningScope } from "../agents/config";
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
    Prisma.sql`DELETE FROM trajectory_class_users t USING (${keys}) k WHERE (t.agent_id, t.user_scope, t.canonical_hash) = (k.agent_id, k.user_scope, k.canonical_hash)`,
    Prisma.sql`DELETE FROM trajectory_classes t USING (${keys}) k WHERE (t.agent_id, t.user_scope, t.canonical_hash) = (k.agent_id, k.user_scope, k.canonical_hash)`,
    Prisma.sql`INSERT INTO trajectory_class_queries (agent_id, user_scope, canonical_hash, normalized_query, first_seen)
     SELECT w.agent_id, w.user_scope, w.canonical_hash, w.normalized_query, min(w.created_at)
     FROM workflows w JOIN (${keys}) k USING (agent_id, user_scope, canonical_hash)
     WHERE w.normalized_query <> '' GROUP BY 1, 2, 3, 4`,
    Prisma.sql`INSERT INTO trajectory_class_days (agent_id, user_scope, canonical_hash, day, executions, successes)
     SELECT w.agent_id, w.user_scope, w.canonical_hash, (w.created_at AT TIME ZONE 'UTC')::date, count(*)::int,
       (count(*) FILTER (WHERE w.outcome = 'SUCCESS'))::int
     FROM workflows w JOIN (${keys}) k USING (agent_id, user_scope, canonical_hash) GROUP BY 1, 2, 3, 4`,
    Prisma.sql`INSERT INTO trajectory_class_users (agent_id, user_scope, canonical_hash, user_id, first_seen)
     SELECT w.agent_id, w.user_scope, w.canonical_hash, w.user_id, min(w.created_at)
     FROM workflows w JOIN (${keys}) k USING (agent_id, user_scope, canonical_hash)
     WHERE w.outcome = 'SUCCESS' AND w.user_id IS NOT NULL GROUP BY 1, 2, 3, 4`,
    Prisma.sql`INSERT INTO trajectory_classes (agent_id, user_scope, canonical_hash, signature, tools, executions, successes,
       distinct_queries, distinct_users, first_seen, last_seen)
     SELECT g.agent_id, g.user_scope, g.canonical_hash, g.signature,
       ARRAY(SELECT u.unit ->> 'tool' FROM jsonb_array_elements(g.signature) WITH ORDINALITY AS u(unit, n) ORDER BY u.n),
       g.executions, g.successes, g.distinct_queries, g.distinct_users, g.first_seen, g.last_seen
     FROM (
       SELECT w.agent_id, w.user_scope, w.canonical_hash,
         (array_agg(w.canonical_signature ORDER BY w.created_at))[1] AS signature,
         count(*)::int AS executions, (count(*) FILTER (WHERE w.outcome = 'SUCCESS'))::int AS successes,
         (count(DISTINCT w.normalized_query) FILTER (WHERE w.normalized_query <> ''))::int AS distinct_queries,
         (count(DISTINCT w.user_id) FILTER (WHERE w.outcome = 'SUCCESS'))::int AS distinct_users,
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
        await lockClassStatistics(tx);
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

/**
 * Holds off ingestion's class upserts until the caller's transaction ends (ingestion takes this
 * table's row-exclusive lock before any row lock, so waiting here never deadlocks with it).
 */
export async function lockClassStatistics(tx: Tx) {
  await tx.$executeRaw`LOCK TABLE trajectory_classes IN SHARE ROW EXCLUSIVE MODE`;
}

/** Rebuilds the statistics of the [agent_id, user_scope, canonical_hash] classes from their runs. */
export async function rebuildClasses(tx: Tx, keys: [string, string, string][]) {
  if (keys.length === 0) return;
  for (const sql of rebuildSql(JSON.stringify(keys))) await tx.$executeRaw(sql);
}

export type RescopeReport = { runs_rescoped: number; classes_rebuilt: number };

/**
 * Regroups an agent's runs under `scope` (the user scope runUserScope gives each run: "" for
 * all of them, or each run's account) and rebuilds every class its runs left or joined, in the
 * caller's transaction, which also stores the new scope. The table lock is the hash backfill's:
 * a concurrent ingestion either commits before the runs are read (and is regrouped with them) or
 * waits, then finds the agent's configuration changed and stores its runs under the new scope.
 * Taken before the caller writes the agent row, so it cannot deadlock with ingestion (which
 * locks the table first and may write that row). Skills keep their scope.
 */
export async function applyLearningScope(tx: Tx, agentId: string, scope: LearningScope): Promise<RescopeReport> {
  await lockClassStatistics(tx);
  const target = scope === "user" ? Prisma.sql`COALESCE(user_id, '')` : Prisma.sql`''`;
  const before = await tx.$queryRaw<{ user_scope: string; canonical_hash: string }[]>`
    SELECT user_scope, canonical_hash FROM trajectory_classes WHERE agent_id = ${agentId}`;
  const runs = await tx.$executeRaw`UPDATE workflows SET user_scope = ${target} WHERE agent_id = ${agentId} AND user_scope <> ${target}`;
  if (runs === 0) return { runs_rescoped: 0, classes_rebuilt: 0 };
  const after = await tx.$queryRaw<{ user_scope: string; canonical_hash: string }[]>`
    SELECT DISTINCT user_scope, canonical_hash FROM workflows WHERE agent_id = ${agentId} AND canonical_hash IS NOT NULL`;
  const keys = new Map<string, [string, string, string]>();
  for (const r of [...before, ...after]) keys.set(JSON.stringify([r.user_scope, r.canonical_hash]), [agentId, r.user_scope, r.canonical_hash]);
  await rebuildClasses(tx, [...keys.values()]);
  return { runs_rescoped: runs, classes_rebuilt: keys.size };
}
