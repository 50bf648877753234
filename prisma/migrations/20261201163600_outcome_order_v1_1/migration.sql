-- Stored runs judged again under api.md v1.1 "Outcome, in this order" (issue 12), and the class
-- statistics (trajectory_classes and trajectory_class_days successes) of every class that had a
-- run change. Verdicts the old order reached the same way are kept; what changes:
--   - a run that reported success is judged by the agent's outcome_rule first (its current rule:
--     the old order never consulted one for it): a failing or unevaluable rule makes it a
--     failure ('RULE', with learning_error when unevaluable);
--   - a run that the old order let succeed by default or by a passing rule is a failure
--     ('STEP_ERROR') when its last step carries an error (the last unit of its canonical
--     signature is errored: retries fold into their unit, so that is the last attempt), else a
--     success ('DEFAULT').
-- The number of changed runs and rebuilt classes is raised as a NOTICE, which `npm run
-- db:migrate` and `npm start` print.

-- errorClass() of lib/learning/canonical.ts: absent, null, false, "" and 0 are no error.
CREATE FUNCTION proctor_v1_1_is_error(e jsonb) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT e IS NOT NULL AND e NOT IN ('null'::jsonb, 'false'::jsonb, '""'::jsonb, '0'::jsonb)
$$;

-- applyRule() of lib/learning/outcome.ts: NULL when the rule passes, '' when it fails, else the
-- learning_error of a rule that cannot be evaluated.
CREATE FUNCTION proctor_v1_1_rule_failure(rule jsonb, steps jsonb) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  cond jsonb;
  step jsonb;
  idx int;
  cur jsonb;
  key text;
  found boolean;
  failed boolean := false;
BEGIN
  IF jsonb_typeof(rule -> 'fail_when') IS DISTINCT FROM 'array' THEN
    RETURN 'outcome_rule could not be evaluated: the agent''s outcome_rule is malformed';
  END IF;
  FOR cond IN SELECT value FROM jsonb_array_elements(rule -> 'fail_when') LOOP
    idx := -1;
    FOR step IN SELECT value FROM jsonb_array_elements(CASE WHEN jsonb_typeof(steps) = 'array' THEN steps ELSE '[]'::jsonb END) LOOP
      idx := idx + 1;
      CONTINUE WHEN jsonb_typeof(step) IS DISTINCT FROM 'object' OR jsonb_typeof(step -> 'tool') IS DISTINCT FROM 'string'
        OR btrim(step ->> 'tool', E' \t\n\r') <> cond ->> 'tool' OR proctor_v1_1_is_error(step -> 'error');
      cur := step -> 'result';
      -- Results that arrive as JSON text are parsed first; text that is not JSON stays text.
      IF jsonb_typeof(cur) = 'string' AND ltrim(cur #>> '{}', E' \t\n\r') ~ '^[[{]' THEN
        BEGIN
          cur := (cur #>> '{}')::jsonb;
        EXCEPTION WHEN others THEN
          NULL;
        END;
      END IF;
      found := true;
      FOREACH key IN ARRAY string_to_array(cond ->> 'path', '.') LOOP
        IF jsonb_typeof(cur) IS DISTINCT FROM 'object' OR NOT cur ? key THEN
          found := false;
          EXIT;
        END IF;
        cur := cur -> key;
      END LOOP;
      IF NOT found THEN
        RETURN format('outcome_rule could not be evaluated: step %s (%s) has no ''%s'' in its result', idx, cond ->> 'tool', cond ->> 'path');
      END IF;
      IF cur = cond -> 'equals' THEN
        failed := true;
      END IF;
    END LOOP;
  END LOOP;
  RETURN CASE WHEN failed THEN '' END;
END
$$;

DO $$
DECLARE
  runs_changed int;
  classes_rebuilt int;
BEGIN
  CREATE TEMP TABLE outcome_changes (agent_id text, user_scope text, canonical_hash text, day date) ON COMMIT DROP;

  WITH judged AS (
    SELECT w.id,
      CASE
        WHEN w.outcome_source = 'REPORTED' AND w.outcome = 'SUCCESS' AND a.outcome_rule IS NOT NULL
          THEN proctor_v1_1_rule_failure(a.outcome_rule, w.steps)
      END AS rule_failure,
      (w.outcome_source = 'RULE' AND w.outcome = 'SUCCESS')
        OR (w.outcome_source = 'EXECUTION' AND NOT proctor_v1_1_is_error(w.execution_error)) AS by_default,
      COALESCE((w.canonical_signature -> -1 ->> 'errored')::boolean, false) AS ends_on_error
    FROM workflows w JOIN agents a ON a.id = w.agent_id
  ),
  decided AS (
    SELECT id,
      CASE WHEN rule_failure IS NOT NULL OR ends_on_error THEN 'FAILURE' ELSE 'SUCCESS' END::"Outcome" AS outcome,
      CASE WHEN rule_failure IS NOT NULL THEN 'RULE' WHEN ends_on_error THEN 'STEP_ERROR' ELSE 'DEFAULT' END::"OutcomeSource" AS source,
      NULLIF(rule_failure, '') AS learning_error
    FROM judged WHERE rule_failure IS NOT NULL OR by_default
  ),
  changed AS (
    UPDATE workflows w SET outcome = d.outcome, outcome_source = d.source, learning_error = COALESCE(d.learning_error, w.learning_error)
    FROM decided d
    WHERE w.id = d.id AND (w.outcome, w.outcome_source) IS DISTINCT FROM (d.outcome, d.source)
    RETURNING w.agent_id, w.user_scope, w.canonical_hash, (w.created_at AT TIME ZONE 'UTC')::date AS day
  )
  INSERT INTO outcome_changes SELECT * FROM changed;
  GET DIAGNOSTICS runs_changed = ROW_COUNT;

  UPDATE trajectory_classes c SET successes = (
    SELECT count(*)::int FROM workflows w
    WHERE (w.agent_id, w.user_scope, w.canonical_hash) = (c.agent_id, c.user_scope, c.canonical_hash) AND w.outcome = 'SUCCESS'
  )
  WHERE (c.agent_id, c.user_scope, c.canonical_hash) IN (SELECT agent_id, user_scope, canonical_hash FROM outcome_changes WHERE canonical_hash IS NOT NULL);
  GET DIAGNOSTICS classes_rebuilt = ROW_COUNT;

  UPDATE trajectory_class_days d SET successes = (
    SELECT count(*)::int FROM workflows w
    WHERE (w.agent_id, w.user_scope, w.canonical_hash) = (d.agent_id, d.user_scope, d.canonical_hash)
      AND (w.created_at AT TIME ZONE 'UTC')::date = d.day AND w.outcome = 'SUCCESS'
  )
  WHERE (d.agent_id, d.user_scope, d.canonical_hash, d.day) IN (SELECT agent_id, user_scope, canonical_hash, day FROM outcome_changes WHERE canonical_hash IS NOT NULL);

  RAISE NOTICE 'outcome order v1.1: % stored run(s) changed outcome or source; % trajectory class(es) recounted', runs_changed, classes_rebuilt;
END
$$;

DROP FUNCTION proctor_v1_1_rule_failure(jsonb, jsonb);
DROP FUNCTION proctor_v1_1_is_error(jsonb);
