// Ingestion SQL (Prisma.sql tagged templates; see InsertRuns for the main statement's inputs).
// Nothing is inserted unless the outcome rule and learning configuration are the agent's stored
// values and its deletion has not started; the answer then has no rows at all (otherwise at least the guard's row, with a null id
// when nothing was new). Data-modifying CTEs all see the same snapshot, and the statistics are
// computed from `ins`, i.e. only from the rows this statement really inserted: a duplicate or a
// row lost to a concurrent insert of the same workflow_id never counts twice.
// One statement does all the write-time bookkeeping (class statistics, distinct queries and accounts, daily
// counts, stamping runs whose class an ACTIVE skill covers, the run counters and the shadow
// evaluation outbox), so a plain run commits in one round trip. It writes the agents row at most
// once (shadow_dropped); the promotion cadence, which writes that row too, is cadenceSql, a
// second statement run only by the request that crosses the mark (one in promotion_every_n_runs).
// Every INSERT feeds its rows in key order, so concurrent requests lock rows in one order.
import { Prisma } from "../../db/generated/client";
import { PROMOTION_CYCLE_JOB } from "../monitor/monitor";
import { SHADOW_EVALUATION_JOB } from "../shadow/enqueue";

/** Rows per agent in agent_run_counters: more than the connections that ingest at once. */
export const RUN_COUNTER_SLOTS = 16;

export type InsertRuns = {
  agentId: string;
  /** JSON array of rows (see insertRow in ../ingest.ts), sorted by workflow_id */
  rows: string;
  /** the outcome rule the rows were judged by (JSON), or null */
  outcomeRule: string | null;
  /** the learning configuration that decided how to store them (JSON) */
  learning: string;
  /** its promotion_every_n_runs */
  every: number;
  /** its shadow_evaluation_queue_size when shadow evaluation is on, else null */
  queueSize: number | null;
};

export const insertRunsSql = (p: InsertRuns) => Prisma.sql`
WITH guard AS (
  SELECT 1 AS ok FROM agents
  WHERE id = ${p.agentId}::text AND outcome_rule IS NOT DISTINCT FROM ${p.outcomeRule}::jsonb AND learning = ${p.learning}::jsonb
    AND deleting_at IS NULL -- an agent being deleted takes no more runs
),
src AS (
  SELECT * FROM jsonb_to_recordset(${p.rows}::jsonb) AS x(
    id text, workflow_id text, user_id text, user_scope text, thread_id text, root_trace_id text,
    query text, normalized_query text, steps jsonb, execution_error jsonb, answer text,
    outcome text, outcome_source text, learning_error text, canonical_signature jsonb,
    canonical_hash text, canonical_version int, step_count int, tools text[], skills_activated text[],
    embedding text, embedder_id text, body_hash text, created_at timestamptz, shadow_eligible boolean)
),
ins AS (
  INSERT INTO workflows (id, agent_id, workflow_id, user_id, user_scope, thread_id, root_trace_id,
    query, normalized_query, steps, execution_error, answer, outcome, outcome_source, learning_error,
    canonical_signature, canonical_hash, canonical_version, step_count, promoted_skill_id,
    skills_activated, shadow_evaluations, embedding, embedder_id, body_hash, created_at)
  SELECT id, ${p.agentId}::text, workflow_id, user_id, user_scope, thread_id, root_trace_id,
    query, normalized_query, steps, execution_error, answer, outcome::"Outcome", outcome_source::"OutcomeSource", learning_error,
    canonical_signature, canonical_hash, canonical_version, step_count,
    -- Write-time stamping: a run whose class an ACTIVE skill covers in its scope is suppressed.
    (SELECT s.id FROM skills s
      WHERE s.agent_id = ${p.agentId}::text AND s.user_scope = src.user_scope AND s.source_canonical_hash = src.canonical_hash
        AND s.status = 'ACTIVE'
      ORDER BY s.id LIMIT 1),
    skills_activated, '[]'::jsonb, embedding::real[], embedder_id, body_hash, created_at
  FROM src WHERE EXISTS (SELECT 1 FROM guard) ORDER BY workflow_id
  ON CONFLICT (agent_id, workflow_id) DO NOTHING
  RETURNING id, promoted_skill_id
),
fresh AS (SELECT src.*, ins.promoted_skill_id FROM src JOIN ins USING (id)),
classed AS (SELECT * FROM fresh WHERE canonical_hash IS NOT NULL),
-- The run counters: one row per (agent, session slot), so concurrent requests, which run on
-- different sessions, do not queue on one hot row; the totals are the sums over the slots.
counted AS (
  INSERT INTO agent_run_counters AS r (agent_id, slot, runs, last_run_at)
  SELECT ${p.agentId}::text, pg_backend_pid() % ${RUN_COUNTER_SLOTS}::int, count(*), max(created_at) FROM fresh HAVING count(*) > 0
  ON CONFLICT (agent_id, slot) DO UPDATE SET
    runs = r.runs + EXCLUDED.runs,
    last_run_at = GREATEST(r.last_run_at, EXCLUDED.last_run_at)
  RETURNING 1
),
-- The promotion cadence is only read here (cycle_due): moving the mark writes the agent row,
-- which shadow_dropped may write too, and PostgreSQL keeps only one of two changes to a row
-- made by one statement. cadenceSql moves it, in the next round trip, when this says due.
total AS (
  SELECT COALESCE((SELECT sum(runs) FROM agent_run_counters WHERE agent_id = ${p.agentId}::text), 0) + (SELECT count(*) FROM fresh) AS runs
),
cycle_due AS (
  SELECT 1 FROM agents
  WHERE id = ${p.agentId}::text AND ${p.every}::int > 0 AND EXISTS (SELECT 1 FROM fresh) AND (SELECT runs FROM total) >= cycle_mark + ${p.every}::int
),
-- The shadow evaluation outbox: one job per eligible new run, bounded by the agent's queue
-- size; runs beyond the bound are counted in agents.shadow_dropped instead (the agent row is
-- locked only then). Counting stops at the bound, so the check reads at most queue-size index entries.
-- Under concurrency two requests may both see the last free places: the bound is a backlog
-- guard, exact for sequential ingestion and exceeded by at most the requests in flight.
shadow_wanted AS (
  SELECT id, row_number() OVER (ORDER BY workflow_id) AS ord FROM fresh WHERE shadow_eligible AND ${p.queueSize}::int IS NOT NULL
),
shadow_room AS (
  SELECT GREATEST(0, ${p.queueSize}::int - (SELECT count(*) FROM (
    SELECT 1 FROM jobs WHERE kind = ${SHADOW_EVALUATION_JOB}::text AND agent_id = ${p.agentId}::text AND status = 'PENDING' LIMIT ${p.queueSize}::int
  ) pending))::int AS n
  WHERE ${p.queueSize}::int IS NOT NULL AND EXISTS (SELECT 1 FROM shadow_wanted)
),
shadow_jobs AS (
  INSERT INTO jobs (kind, agent_id, payload, status, run_after)
  SELECT ${SHADOW_EVALUATION_JOB}::text, ${p.agentId}::text, jsonb_build_object('run_id', w.id), 'PENDING', now()
  FROM shadow_wanted w, shadow_room r WHERE w.ord <= r.n
  ORDER BY w.ord
  RETURNING 1
),
shadow_dropped AS (
  UPDATE agents SET shadow_dropped = shadow_dropped + ((SELECT count(*) FROM shadow_wanted) - (SELECT count(*) FROM shadow_jobs))::int
  WHERE id = ${p.agentId}::text AND (SELECT count(*) FROM shadow_jobs) < (SELECT count(*) FROM shadow_wanted)
  RETURNING 1
),
new_queries AS (
  INSERT INTO trajectory_class_queries (agent_id, user_scope, canonical_hash, normalized_query, first_seen)
  SELECT ${p.agentId}::text, user_scope, canonical_hash, normalized_query, min(created_at)
  FROM classed WHERE normalized_query <> ''
  GROUP BY user_scope, canonical_hash, normalized_query
  ORDER BY user_scope, canonical_hash, normalized_query
  ON CONFLICT DO NOTHING
  RETURNING user_scope, canonical_hash
),
query_counts AS (
  SELECT user_scope, canonical_hash, count(*)::int AS n FROM new_queries GROUP BY user_scope, canonical_hash
),
-- The accounts of successful runs, one row per class and account: distinct_users grows by the
-- rows really inserted (the pooled scope's distinct-accounts gate reads it).
new_users AS (
  INSERT INTO trajectory_class_users (agent_id, user_scope, canonical_hash, user_id, first_seen)
  SELECT ${p.agentId}::text, user_scope, canonical_hash, user_id, min(created_at)
  FROM classed WHERE outcome = 'SUCCESS' AND user_id IS NOT NULL
  GROUP BY user_scope, canonical_hash, user_id
  ORDER BY user_scope, canonical_hash, user_id
  ON CONFLICT DO NOTHING
  RETURNING user_scope, canonical_hash
),
user_counts AS (
  SELECT user_scope, canonical_hash, count(*)::int AS n FROM new_users GROUP BY user_scope, canonical_hash
),
class_rows AS (
  SELECT DISTINCT ON (user_scope, canonical_hash) user_scope, canonical_hash, canonical_signature, tools
  FROM classed ORDER BY user_scope, canonical_hash, created_at
),
class_stats AS (
  SELECT user_scope, canonical_hash, count(*)::int AS executions,
    (count(*) FILTER (WHERE outcome = 'SUCCESS'))::int AS successes,
    min(created_at) AS first_seen, max(created_at) AS last_seen
  FROM classed GROUP BY user_scope, canonical_hash
),
upsert_classes AS (
  INSERT INTO trajectory_classes AS c (agent_id, user_scope, canonical_hash, signature, tools, executions,
    successes, distinct_queries, distinct_users, first_seen, last_seen)
  SELECT ${p.agentId}::text, s.user_scope, s.canonical_hash, r.canonical_signature, r.tools, s.executions, s.successes,
    COALESCE(q.n, 0), COALESCE(u.n, 0), s.first_seen, s.last_seen
  FROM class_stats s
  JOIN class_rows r USING (user_scope, canonical_hash)
  LEFT JOIN query_counts q USING (user_scope, canonical_hash)
  LEFT JOIN user_counts u USING (user_scope, canonical_hash)
  ORDER BY s.user_scope, s.canonical_hash
  ON CONFLICT (agent_id, user_scope, canonical_hash) DO UPDATE SET
    executions = c.executions + EXCLUDED.executions,
    successes = c.successes + EXCLUDED.successes,
    distinct_queries = c.distinct_queries + EXCLUDED.distinct_queries,
    distinct_users = c.distinct_users + EXCLUDED.distinct_users,
    first_seen = LEAST(c.first_seen, EXCLUDED.first_seen),
    last_seen = GREATEST(c.last_seen, EXCLUDED.last_seen)
  RETURNING 1
),
upsert_days AS (
  INSERT INTO trajectory_class_days AS d (agent_id, user_scope, canonical_hash, day, executions, successes)
  SELECT ${p.agentId}::text, user_scope, canonical_hash, (created_at AT TIME ZONE 'UTC')::date, count(*)::int,
    (count(*) FILTER (WHERE outcome = 'SUCCESS'))::int
  FROM classed
  GROUP BY 2, 3, 4
  ORDER BY 2, 3, 4
  ON CONFLICT (agent_id, user_scope, canonical_hash, day) DO UPDATE SET
    executions = d.executions + EXCLUDED.executions,
    successes = d.successes + EXCLUDED.successes
  RETURNING 1
)
SELECT f.id, f.promoted_skill_id, EXISTS (SELECT 1 FROM cycle_due) AS cycle_due FROM guard LEFT JOIN fresh f ON true`;

/**
 * Moves the promotion cadence mark and enqueues a promotion_cycle job (`every` = the agent's
 * promotion_every_n_runs), run after insertRunsSql answered cycle_due. The total is re-read
 * (it now includes the runs just stored). The agent row's WHERE is re-checked once locked, so
 * of several concurrent requests that see the crossing only one moves the mark. The check is a
 * level (total ≥ mark + n), not an edge: if this statement never runs (the process died after
 * the insert committed), the next stored run finds the mark still due and moves it.
 */
export const cadenceSql = (agentId: string, every: number) => Prisma.sql`
WITH total AS (
  SELECT COALESCE(sum(runs), 0) AS runs FROM agent_run_counters WHERE agent_id = ${agentId}::text
),
cycle_mark AS (
  UPDATE agents SET cycle_mark = (SELECT runs FROM total)
  WHERE id = ${agentId}::text AND (SELECT runs FROM total) >= cycle_mark + ${every}::int
  RETURNING 1
)
INSERT INTO jobs (kind, agent_id, payload, status, run_after)
SELECT ${PROMOTION_CYCLE_JOB}::text, ${agentId}::text, '{}'::jsonb, 'PENDING', now()
FROM cycle_mark
WHERE NOT EXISTS (SELECT 1 FROM jobs WHERE kind = ${PROMOTION_CYCLE_JOB}::text AND agent_id = ${agentId}::text AND status = 'PENDING')`;

/** What is stored now for the request's workflow_ids (a JSON array of them). */
export const readStoredSql = (agentId: string, workflowIds: string) => Prisma.sql`
SELECT id, workflow_id, body_hash, canonical_hash, step_count, outcome::text AS outcome,
  outcome_source::text AS outcome_source, promoted_skill_id
FROM workflows
WHERE agent_id = ${agentId}::text AND workflow_id IN (SELECT jsonb_array_elements_text(${workflowIds}::jsonb))`;
