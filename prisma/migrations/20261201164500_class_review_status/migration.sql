-- A trajectory class's review status, defined once: the review list (lib/learning/review/
-- class-list.ts) classifies, counts and filters by it in SQL, and the class detail
-- (class-detail.ts) asks it for its one class. `live_status` is the live skill's status
-- (CANDIDATE, SHADOW or ACTIVE; null when none), `gate_failures` class_gate_failures over the
-- statistics the gates counted, `executions` and `successes` those statistics.
-- promoted: an ACTIVE skill covers the class; in_review: a SHADOW or CANDIDATE one does;
-- ready: every gate passes; failing: runs exist and fewer than half succeeded; otherwise the
-- class needs more evidence. Inlined by the planner like class_gate_failures.
CREATE FUNCTION class_review_status(
  live_status text,
  gate_failures integer,
  executions integer,
  successes integer
) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT CASE
    WHEN upper(live_status) = 'ACTIVE' THEN 'promoted'
    WHEN live_status IS NOT NULL THEN 'in_review'
    WHEN gate_failures = 0 THEN 'ready'
    WHEN executions > 0 AND successes::float8 / executions < 0.5 THEN 'failing'
    ELSE 'evidence'
  END
$$;
