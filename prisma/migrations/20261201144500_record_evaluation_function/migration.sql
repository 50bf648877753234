-- Hand-written: record_evaluation (ledger spec §3.2) as one round trip. The TypeScript
-- (lib/ledger/record-evaluation.ts) validates the input, hashes the evidence reference, calls
-- this function once and maps its outcome to the spec's error variants. The arithmetic is
-- lib/ledger/arithmetic.ts's, step for step in double precision; the Hoeffding radius needs ln,
-- whose last bit differs between libms, so the caller computes it in TypeScript and passes it
-- in (asked for with outcome 'radius_needed' on the one case that decides qualification).

-- mean + (x − mean) / n, IEEE-exact as in JavaScript. PostgreSQL raises "underflow" where a
-- non-zero quotient rounds to zero (|x/n| ≤ 2^-1075); JavaScript answers ±0, and so does this.
CREATE FUNCTION ledger_running_mean(mean DOUBLE PRECISION, x DOUBLE PRECISION, n INTEGER)
RETURNS DOUBLE PRECISION LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT mean + CASE
    WHEN 2 * abs(x - mean) <= n::float8 * '4.9406564584124654e-324'::float8
      THEN CASE WHEN x - mean < 0 THEN '-0'::float8 ELSE 0::float8 END
    ELSE (x - mean) / n::float8
  END
$$;

-- Outcomes: 'recorded', 'duplicate' (the stored receipt's fields returned), 'radius_needed'
-- (confidence_delta and qualification_trials returned, nothing written), or a refusal:
-- 'not_found', 'case_conflict', 'evaluator_mismatch', 'evidence_is_source',
-- 'evidence_claimed', 'phase_mismatch', 'counter_exhausted'. Refusals write nothing.
CREATE FUNCTION ledger_record_evaluation(
  p_tenant TEXT, p_agent TEXT, p_environment TEXT, p_procedure_id TEXT,
  p_case_id TEXT, p_phase "LedgerPhase", p_evaluator_id TEXT, p_evaluation_contract TEXT,
  p_evidence_ref TEXT, p_evidence_key BYTEA, p_baseline_utility DOUBLE PRECISION,
  p_candidate_utility DOUBLE PRECISION, p_cost_units BIGINT, p_latency_ms BIGINT,
  p_radius DOUBLE PRECISION)
RETURNS TABLE (
  outcome TEXT, state_after TEXT, recorded_at TIMESTAMPTZ(3),
  phase TEXT, evaluator_id TEXT, evaluation_contract TEXT, evidence_ref TEXT,
  baseline_utility DOUBLE PRECISION, candidate_utility DOUBLE PRECISION,
  candidate_cost_units BIGINT, candidate_latency_ms BIGINT,
  confidence_delta DOUBLE PRECISION, qualification_trials INTEGER)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  r ledger_evaluations%ROWTYPE;
  p RECORD;
  within_budget BOOLEAN;
  improvement DOUBLE PRECISION;
  lower_bound DOUBLE PRECISION;
  good BOOLEAN;
  state_before "LedgerState";
  now_ms TIMESTAMPTZ(3);
BEGIN
  -- 3. Receipts never change: a stored one answers without waiting for the procedure's lock.
  SELECT * INTO r FROM ledger_evaluations e
  WHERE e.tenant = p_tenant AND e.agent = p_agent AND e.environment = p_environment
    AND e.procedure_id = p_procedure_id AND e.case_id = p_case_id;
  IF NOT FOUND THEN
    -- Waiting for the lock under load is normal; give it room, but not forever.
    PERFORM set_config('lock_timeout', '30s', true);
    SELECT x.state, x.qualification_count, x.mean_improvement, x.mean_candidate_utility, x.budget_violations,
      x.lower_improvement_bound, x.monitoring_count, x.failure_streak, x.source_refs, x.qualification_trials,
      x.confidence_delta, x.min_improvement, x.min_candidate_utility, x.max_cost_units, x.max_latency_ms,
      x.max_failure_streak, x.evaluator_id, x.evaluation_contract
    INTO p FROM ledger_procedures x
    WHERE x.tenant = p_tenant AND x.agent = p_agent AND x.environment = p_environment
      AND x.procedure_id = p_procedure_id
    FOR UPDATE;
    -- 4. (A receipt only exists under its procedure, so no procedure also means no receipt.)
    IF NOT FOUND THEN
      RETURN QUERY SELECT 'not_found', NULL::text, NULL::timestamptz(3), NULL::text, NULL::text, NULL::text, NULL::text,
        NULL::float8, NULL::float8, NULL::bigint, NULL::bigint, NULL::float8, NULL::int;
      RETURN;
    END IF;
    -- A new statement, a new snapshot: it sees the case the previous lock holder committed.
    SELECT * INTO r FROM ledger_evaluations e
    WHERE e.tenant = p_tenant AND e.agent = p_agent AND e.environment = p_environment
      AND e.procedure_id = p_procedure_id AND e.case_id = p_case_id;
  END IF;
  IF r.case_id IS NOT NULL THEN
    -- Every field, floats compared as numbers (so -0 equals 0, as in the reference).
    IF r.phase = p_phase AND r.evaluator_id = p_evaluator_id AND r.evaluation_contract = p_evaluation_contract
      AND r.evidence_ref = p_evidence_ref AND r.baseline_utility = p_baseline_utility
      AND r.candidate_utility = p_candidate_utility AND r.candidate_cost_units = p_cost_units
      AND r.candidate_latency_ms = p_latency_ms THEN
      RETURN QUERY SELECT 'duplicate', r.state_after::text, r.recorded_at, r.phase::text, r.evaluator_id,
        r.evaluation_contract, r.evidence_ref, r.baseline_utility, r.candidate_utility,
        r.candidate_cost_units, r.candidate_latency_ms, NULL::float8, NULL::int;
    ELSE
      RETURN QUERY SELECT 'case_conflict', NULL::text, NULL::timestamptz(3), NULL::text, NULL::text, NULL::text, NULL::text,
        NULL::float8, NULL::float8, NULL::bigint, NULL::bigint, NULL::float8, NULL::int;
    END IF;
    RETURN;
  END IF;

  -- 5–8, in the spec's order.
  outcome := CASE
    WHEN p_evaluator_id <> p.evaluator_id OR p_evaluation_contract <> p.evaluation_contract THEN 'evaluator_mismatch'
    WHEN p_evidence_ref = ANY (p.source_refs) THEN 'evidence_is_source'
    WHEN EXISTS (SELECT 1 FROM ledger_evaluations e
      WHERE e.tenant = p_tenant AND e.agent = p_agent AND e.environment = p_environment
        AND e.procedure_id = p_procedure_id AND e.evidence_key = p_evidence_key
        AND e.evidence_ref = p_evidence_ref) THEN 'evidence_claimed'
    WHEN NOT ((p.state = 'CANDIDATE' AND p_phase = 'QUALIFICATION') OR (p.state = 'ACTIVE' AND p_phase = 'MONITORING'))
      THEN 'phase_mismatch'
    -- The reference's u64 overflow check; the TypeScript bounds the counter by what JSON carries.
    WHEN p_phase = 'MONITORING' AND p.monitoring_count >= 9007199254740991 THEN 'counter_exhausted'
  END;
  IF outcome IS NOT NULL THEN
    RETURN QUERY SELECT outcome, NULL::text, NULL::timestamptz(3), NULL::text, NULL::text, NULL::text, NULL::text,
      NULL::float8, NULL::float8, NULL::bigint, NULL::bigint, NULL::float8, NULL::int;
    RETURN;
  END IF;

  -- 9. Apply (lib/ledger/arithmetic.ts#applyEvaluation).
  within_budget := p_cost_units <= p.max_cost_units AND p_latency_ms <= p.max_latency_ms;
  improvement := p_candidate_utility - p_baseline_utility;
  state_before := p.state;
  IF p_phase = 'QUALIFICATION' THEN
    p.qualification_count := p.qualification_count + 1;
    p.mean_improvement := ledger_running_mean(p.mean_improvement, improvement, p.qualification_count);
    p.mean_candidate_utility := ledger_running_mean(p.mean_candidate_utility, p_candidate_utility, p.qualification_count);
    IF NOT within_budget THEN p.budget_violations := p.budget_violations + 1; END IF;
    -- The one fixed decision point: no early acceptance, no early rejection.
    IF p.qualification_count = p.qualification_trials THEN
      IF p_radius IS NULL THEN
        RETURN QUERY SELECT 'radius_needed', NULL::text, NULL::timestamptz(3), NULL::text, NULL::text, NULL::text, NULL::text,
          NULL::float8, NULL::float8, NULL::bigint, NULL::bigint, p.confidence_delta, p.qualification_trials;
        RETURN;
      END IF;
      lower_bound := p.mean_improvement - p_radius;
      p.lower_improvement_bound := greatest(lower_bound, -1);
      -- The gate reads the unclamped bound, as the reference does.
      p.state := CASE WHEN lower_bound >= p.min_improvement AND p.mean_candidate_utility >= p.min_candidate_utility
        AND p.budget_violations = 0 THEN 'ACTIVE' ELSE 'REJECTED' END;
    END IF;
  ELSE
    p.monitoring_count := p.monitoring_count + 1;
    -- A tie with the baseline counts as good; successes in the past cannot offset a streak.
    good := within_budget AND p_candidate_utility >= p.min_candidate_utility AND improvement >= 0;
    p.failure_streak := CASE WHEN good THEN 0 ELSE p.failure_streak + 1 END;
    IF p.failure_streak >= p.max_failure_streak THEN p.state := 'SUSPENDED'; END IF;
  END IF;

  -- The receipt (also the evidence claim), the aggregates and any decision, committed
  -- synchronously whatever the server's default is.
  PERFORM set_config('synchronous_commit', 'on', true);
  now_ms := date_trunc('milliseconds', clock_timestamp());
  INSERT INTO ledger_evaluations (tenant, agent, environment, procedure_id, case_id, seq, phase, evaluator_id,
    evaluation_contract, evidence_ref, evidence_key, baseline_utility, candidate_utility, candidate_cost_units,
    candidate_latency_ms, state_after, recorded_at)
  VALUES (p_tenant, p_agent, p_environment, p_procedure_id, p_case_id, p.qualification_count + p.monitoring_count,
    p_phase, p_evaluator_id, p_evaluation_contract, p_evidence_ref, p_evidence_key, p_baseline_utility,
    p_candidate_utility, p_cost_units, p_latency_ms, p.state, now_ms);
  IF p.state <> state_before THEN
    INSERT INTO ledger_decisions (tenant, agent, environment, procedure_id, seq, from_state, to_state, reason,
      triggering_case, recorded_at)
    SELECT p_tenant, p_agent, p_environment, p_procedure_id, count(*), state_before, p.state,
      CASE p.state
        WHEN 'ACTIVE' THEN 'Fixed evaluation budget passed utility, improvement and resource gates'
        WHEN 'REJECTED' THEN 'Fixed evaluation budget failed one or more promotion gates'
        ELSE 'Monitoring failure streak reached policy limit; fall back to baseline'
      END,
      p_case_id, now_ms
    FROM ledger_decisions d
    WHERE d.tenant = p_tenant AND d.agent = p_agent AND d.environment = p_environment
      AND d.procedure_id = p_procedure_id;
  END IF;
  UPDATE ledger_procedures x SET
    state = p.state,
    qualification_count = p.qualification_count,
    mean_improvement = p.mean_improvement,
    mean_candidate_utility = p.mean_candidate_utility,
    budget_violations = p.budget_violations,
    lower_improvement_bound = p.lower_improvement_bound,
    monitoring_count = p.monitoring_count,
    failure_streak = p.failure_streak
  WHERE x.tenant = p_tenant AND x.agent = p_agent AND x.environment = p_environment
    AND x.procedure_id = p_procedure_id;
  RETURN QUERY SELECT 'recorded', p.state::text, now_ms, NULL::text, NULL::text, NULL::text, NULL::text,
    NULL::float8, NULL::float8, NULL::bigint, NULL::bigint, NULL::float8, NULL::int;
END
$$;
