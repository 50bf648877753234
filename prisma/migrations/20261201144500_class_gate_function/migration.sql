-- The promotion gates, defined once. The engine's eligibility (lib/learning/class-gates.ts) and
-- the review list's class status (lib/learning/review/class-list.ts) both call this function;
-- lib/learning/gates.ts only words its verdict. One bit per failed gate, in gate order:
-- 1 coverage, 2 executions, 4 success rate, 8 distinct queries, 16 recency (0: eligible).
-- A single-SELECT LANGUAGE sql function whose body is immutable, declared IMMUTABLE and not
-- STRICT, so the planner inlines it into the calling query: the class list stays one plan over
-- its indexes, with no per-row function call.
CREATE FUNCTION class_gate_failures(
  covered boolean,
  executions integer,
  successes integer,
  distinct_queries integer,
  last_seen timestamptz,
  min_executions integer,
  min_success_rate double precision,
  min_distinct_queries integer,
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
$$;
