-- Learning scope (lib/learning/agents/config.ts, learning_scope). Agents declared before it keep
-- the per-account scope they learned under: "user" is written into every existing agent's
-- stored configuration, and agents declared from now on default to the pooled "agent" scope.
-- Pooled classes gate on distinct accounts: trajectory_class_users holds, per class, the
-- accounts (user_id) of its successful runs, and trajectory_classes.distinct_users counts them
-- (maintained at write time by the ingestion statement, recounted by the class rebuild).
ALTER TABLE "trajectory_classes" ADD COLUMN "distinct_users" INTEGER NOT NULL DEFAULT 0;

CREATE TABLE "trajectory_class_users" (
    "agent_id" TEXT NOT NULL,
    "user_scope" TEXT NOT NULL,
    "canonical_hash" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "first_seen" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "trajectory_class_users_pkey" PRIMARY KEY ("agent_id","user_scope","canonical_hash","user_id")
);

INSERT INTO "trajectory_class_users" ("agent_id", "user_scope", "canonical_hash", "user_id", "first_seen")
SELECT agent_id, user_scope, canonical_hash, user_id, min(created_at)
FROM "workflows"
WHERE canonical_hash IS NOT NULL AND outcome = 'SUCCESS' AND user_id IS NOT NULL
GROUP BY 1, 2, 3, 4;

UPDATE "trajectory_classes" c SET "distinct_users" = u.n
FROM (SELECT agent_id, user_scope, canonical_hash, count(*)::int AS n FROM "trajectory_class_users" GROUP BY 1, 2, 3) u
WHERE (c.agent_id, c.user_scope, c.canonical_hash) = (u.agent_id, u.user_scope, u.canonical_hash);

UPDATE "agents"
SET "learning" = CASE WHEN jsonb_typeof("learning") = 'object' THEN "learning" ELSE '{}'::jsonb END || '{"learning_scope": "user"}'::jsonb
WHERE NOT (jsonb_typeof("learning") = 'object' AND "learning" ? 'learning_scope');

-- The promotion gates gain the distinct-accounts gate (bit 32): a class whose successful runs
-- carry accounts passes once min_distinct_users of them ran it; one without any account passes
-- (it is gated as before). Callers pass min_distinct_users 0 under the per-account scope.
DROP FUNCTION class_gate_failures(boolean, integer, integer, integer, timestamptz, integer, double precision, integer, integer, timestamptz);

-- A single-SELECT LANGUAGE sql function whose body is immutable, declared IMMUTABLE and not
-- STRICT, so the planner inlines it into the calling query. One bit per failed gate:
-- 1 coverage, 2 executions, 4 success rate, 8 distinct queries, 16 recency, 32 distinct accounts.
CREATE FUNCTION class_gate_failures(
  covered boolean,
  executions integer,
  successes integer,
  distinct_queries integer,
  distinct_users integer,
  last_seen timestamptz,
  min_executions integer,
  min_success_rate double precision,
  min_distinct_queries integer,
  min_distinct_users integer,
  max_days_since_last_seen integer,
  as_of timestamptz
) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT (CASE WHEN covered THEN 1 ELSE 0 END)
       | (CASE WHEN executions >= min_executions THEN 0 ELSE 2 END)
       | (CASE WHEN executions > 0 AND successes::float8 / executions >= min_success_rate THEN 0 ELSE 4 END)
       | (CASE WHEN distinct_queries >= min_distinct_queries THEN 0 ELSE 8 END)
       -- Whole days since last seen ≤ the maximum ⟺ an age under maximum + 1 days (of 24 h:
       -- interval arithmetic on days, unlike timestamptz ± interval, ignores time zones).
       | (CASE WHEN last_seen IS NOT NULL AND as_of - last_seen < (max_days_since_last_seen + 1) * interval '1 day' THEN 0 ELSE 16 END)
       | (CASE WHEN distinct_users = 0 OR distinct_users >= min_distinct_users THEN 0 ELSE 32 END)
$$;
