// Ingestion SQL. The main statement: $1 = agent id, $2 = JSON array of rows (see insertRow in
// ../ingest.ts), already sorted by workflow_id, $3 = the outcome rule the rows were judged by
// (JSON, or null). Nothing is inserted unless $3 is the agent's stored rule; the answer then has
// no rows at all (otherwise at least the guard's row, with a null id when nothing was new). Data-modifying CTEs all see the same snapshot, and the
// statistics are computed from `ins`, i.e. only from the rows this statement really inserted:
// a duplicate or a row lost to a concurrent insert of the same workflow_id never counts twice.
// Every INSERT feeds its rows in key order, so concurrent requests lock rows in one order.
export const INSERT_RUNS_SQL = `
WITH guard AS (
  SELECT 1 AS ok FROM agents WHERE id = $1 AND outcome_rule IS NOT DISTINCT FROM $3::jsonb
),
src AS (
  SELECT * FROM jsonb_to_recordset($2::jsonb) AS x(
    id text, workflow_id text, user_id text, user_scope text, thread_id text, root_trace_id text,
    query text, normalized_query text, steps jsonb, execution_error jsonb, answer text,
    outcome text, outcome_source text, learning_error text, canonical_signature jsonb,
    canonical_hash text, canonical_version int, step_count int, tools text[], skills_activated text[],
    embedding text, embedder_id text, body_hash text, created_at timestamptz)
),
ins AS (
  INSERT INTO workflows (id, agent_id, workflow_id, user_id, user_scope, thread_id, root_trace_id,
    query, normalized_query, steps, execution_error, answer, outcome, outcome_source, learning_error,
    canonical_signature, canonical_hash, canonical_version, step_count, promoted_skill_id,
    skills_activated, shadow_evaluations, embedding, embedder_id, body_hash, created_at)
  SELECT id, $1, workflow_id, user_id, user_scope, thread_id, root_trace_id,
    query, normalized_query, steps, execution_error, answer, outcome::"Outcome", outcome_source::"OutcomeSource", learning_error,
    canonical_signature, canonical_hash, canonical_version, step_count, NULL,
    skills_activated, '[]'::jsonb, embedding::real[], embedder_id, body_hash, created_at
  FROM src WHERE EXISTS (SELECT 1 FROM guard) ORDER BY workflow_id
  ON CONFLICT (agent_id, workflow_id) DO NOTHING
  RETURNING id
),
fresh AS (SELECT src.* FROM src JOIN ins USING (id)),
classed AS (SELECT * FROM fresh WHERE canonical_hash IS NOT NULL),
-- The agent row is the one row every run of the agent updates, so it is locked last: PostgreSQL
-- runs unreferenced data-modifying CTEs after the main query, the latest-defined first.
bump_agent AS (
  UPDATE agents SET
    run_count = run_count + (SELECT count(*) FROM fresh),
    last_run_at = GREATEST(last_run_at, (SELECT max(created_at) FROM fresh))
  WHERE id = $1 AND EXISTS (SELECT 1 FROM fresh)
  RETURNING 1
),
new_queries AS (
  INSERT INTO trajectory_class_queries (agent_id, user_scope, canonical_hash, normalized_query, first_seen)
  SELECT $1, user_scope, canonical_hash, normalized_query, min(created_at)
  FROM classed WHERE normalized_query <> ''
  GROUP BY user_scope, canonical_hash, normalized_query
  ORDER BY user_scope, canonical_hash, normalized_query
  ON CONFLICT DO NOTHING
  RETURNING user_scope, canonical_hash
),
query_counts AS (
  SELECT user_scope, canonical_hash, count(*)::int AS n FROM new_queries GROUP BY user_scope, canonical_hash
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
    successes, distinct_queries, first_seen, last_seen)
  SELECT $1, s.user_scope, s.canonical_hash, r.canonical_signature, r.tools, s.executions, s.successes,
    COALESCE(q.n, 0), s.first_seen, s.last_seen
  FROM class_stats s
  JOIN class_rows r USING (user_scope, canonical_hash)
  LEFT JOIN query_counts q USING (user_scope, canonical_hash)
  ORDER BY s.user_scope, s.canonical_hash
  ON CONFLICT (agent_id, user_scope, canonical_hash) DO UPDATE SET
    executions = c.executions + EXCLUDED.executions,
    successes = c.successes + EXCLUDED.successes,
    distinct_queries = c.distinct_queries + EXCLUDED.distinct_queries,
    first_seen = LEAST(c.first_seen, EXCLUDED.first_seen),
    last_seen = GREATEST(c.last_seen, EXCLUDED.last_seen)
  RETURNING 1
),
upsert_days AS (
  INSERT INTO trajectory_class_days AS d (agent_id, user_scope, canonical_hash, day, executions, successes)
  SELECT $1, user_scope, canonical_hash, (created_at AT TIME ZONE 'UTC')::date, count(*)::int,
    (count(*) FILTER (WHERE outcome = 'SUCCESS'))::int
  FROM classed
  GROUP BY 2, 3, 4
  ORDER BY 2, 3, 4
  ON CONFLICT (agent_id, user_scope, canonical_hash, day) DO UPDATE SET
    executions = d.executions + EXCLUDED.executions,
    successes = d.successes + EXCLUDED.successes
  RETURNING 1
)
-- Whether an ACTIVE skill covers the new run's class (the monitor will stamp it).
SELECT f.id, EXISTS (
  SELECT 1 FROM skills s
  WHERE s.agent_id = $1 AND s.user_scope = f.user_scope AND s.source_canonical_hash = f.canonical_hash AND s.status = 'ACTIVE'
) AS covered
FROM guard LEFT JOIN fresh f ON true`;

/** What is stored now for the request's workflow_ids ($2 = JSON array of them). */
export const READ_STORED_SQL = `
SELECT id, workflow_id, body_hash, canonical_hash, step_count, outcome::text AS outcome,
  outcome_source::text AS outcome_source, promoted_skill_id
FROM workflows
WHERE agent_id = $1 AND workflow_id IN (SELECT jsonb_array_elements_text($2::jsonb))`;
