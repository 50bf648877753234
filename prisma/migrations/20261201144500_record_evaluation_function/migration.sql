-- Hand-written: record_evaluation (ledger spec §3.2) in one round trip. The TypeScript
-- (lib/ledger/record-evaluation.ts) validates the input, hashes the evidence reference, calls
-- ledger_record_evaluation once and maps its outcome to the spec's error variants and messages.
-- The arithmetic is lib/ledger/arithmetic.ts's, step for step in double precision, except the
-- Hoeffding radius: ln's last bit differs between libms, so the caller computes the radius in
-- TypeScript and passes it in (asked for by outcome 'radius_needed' on the case that decides).

-- mean + (x − mean) / n, IEEE-exact as in JavaScript. PostgreSQL raises "underflow" where a
-- non-zero quotient rounds to zero (|x − mean| / n ≤ 2^-1075); JavaScript gives ±0, so does this.
CREATE FUNCTION ledger_running_mean(mean DOUBLE PRECISION, x DOUBLE PRECISION, n INTEGER)
RETURNS DOUBLE PRECISION LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT mean + CASE
    WHEN 2 * abs(x - mean) <= n::float8 * '4.9406564584124654e-324'::float8
      THEN CASE WHEN x - mean < 0 THEN '-0'::float8 ELSE 0::float8 END
    ELSE (x - mean) / n::float8
  END
$$;

-- outcome: 'recorded' (state_after, recorded_at), 'duplicate' (the stored receipt's fields),
-- 'radius_needed' (confidence_delta, qualification_trials; nothing written), or a refusal that
-- writes nothing: 'not_found', 'case_conflict', 'evaluator_mismatch', 'evidence_is_source',
-- 'evidence_claimed', 'phase_mismatch', 'counter_exhausted'.
--
-- The usual case costs one locked read, one insert and one update, none of them planned
-- against the receipts' indexes: the insert's ON CONFLICT probes the unique indexes themselves
-- and the update goes by the locked row's ctid. (Planned, a lookup by case on a table not yet
-- analyzed can pick another index with the same leading columns and scan every receipt of the
-- procedure.) Only a case the insert refuses, or one the checks refuse, is looked up, and then
-- classified in the spec's order.
CREATE FUNCTION ledger_record_evaluation(
  p_tenant TEXT, p_agent TEXT, p_environment TEXT, p_procedure_id TEXT,
  p_case_id TEXT, p_phase "LedgerPhase", p_evaluator_id TEXT, p_evaluation_contract TEXT,
  p_evidence_ref TEXT, p_evidence_key BYTEA, p_baseline_utility DOUBLE PRECISION,
  p_candidate_utility DOUBLE PRECISION, p_cost_units BIGINT, p_latency_ms BIGINT,
  p_radius DOUBLE PRECISION,
  OUT outcome TEXT, OUT state_after TEXT, OUT recorded_at TIMESTAMPTZ,
  OUT phase TEXT, OUT evaluator_id TEXT, OUT evaluation_contract TEXT, OUT evidence_ref TEXT,
  OUT baseline_utility DOUBLE PRECISION, OUT candidate_utility DOUBLE PRECISION,
  OUT candidate_cost_units BIGINT, OUT candidate_latency_ms BIGINT,
  OUT confidence_delta DOUBLE PRECISION, OUT qualification_trials INTEGER)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  p RECORD;
  r RECORD;
  refusal TEXT;
  within_budget BOOLEAN;
  improvement DOUBLE PRECISION;
  lower_bound DOUBLE PRECISION;
  state_before "LedgerState";
  now_ms TIMESTAMPTZ;
BEGIN
  -- Waiting for the lock under load is normal; give it room, but not forever.
  PERFORM set_config('lock_timeout', '30s', true);
  SELECT x.ctid, x.state, x.qualification_count, x.mean_improvement, x.mean_candidate_utility, x.budget_violations,
    x.lower_improvement_bound, x.monitoring_count, x.failure_streak, x.source_refs, x.qualification_trials,
    x.confidence_delta, x.min_improvement, x.min_candidate_utility, x.max_cost_units, x.max_latency_ms,
    x.max_failure_streak, x.evaluator_id, x.evaluation_contract
  INTO p FROM ledger_procedures x
  WHERE x.tenant = p_tenant AND x.agent = p_agent AND x.environment = p_environment
    AND x.procedure_id = p_procedure_id
  FOR NO KEY UPDATE;
  -- 4. A receipt only exists under its procedure: no procedure, no receipt (so 3 holds).
  IF NOT FOUND THEN
    outcome := 'not_found';
    RETURN;
  END IF;

  -- 5, 6 and 8 (7, the evidence claim, is the insert's or the lookup's).
  refusal := CASE
    WHEN p_evaluator_id <> p.evaluator_id OR p_evaluation_contract <> p.evaluation_contract THEN 'evaluator_mismatch'
    WHEN p_evidence_ref = ANY (p.source_refs) THEN 'evidence_is_source'
    WHEN NOT ((p.state = 'CANDIDATE' AND p_phase = 'QUALIFICATION') OR (p.state = 'ACTIVE' AND p_phase = 'MONITORING'))
      THEN 'phase_mismatch'
    -- The reference's u64 overflow check; the TypeScript bounds the counter by what JSON carries.
    WHEN p_phase = 'MONITORING' AND p.monitoring_count >= 9007199254740991 THEN 'counter_exhausted'
  END;

  IF refusal IS NULL THEN
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
          SELECT 'radius_needed', p.confidence_delta, p.qualification_trials INTO outcome, confidence_delta, qualification_trials;
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
      p.failure_streak := CASE
        WHEN within_budget AND p_candidate_utility >= p.min_candidate_utility AND improvement >= 0 THEN 0
        ELSE p.failure_streak + 1 END;
      IF p.failure_streak >= p.max_failure_streak THEN p.state := 'SUSPENDED'; END IF;
    END IF;

    -- The receipt (also the evidence claim), any decision and the aggregates, committed
    -- synchronously whatever the server's default is.
    PERFORM set_config('synchronous_commit', 'on', true);
    now_ms := date_trunc('milliseconds', clock_timestamp());
    INSERT INTO ledger_evaluations (tenant, agent, environment, procedure_id, case_id, seq, phase, evaluator_id,
      evaluation_contract, evidence_ref, evidence_key, baseline_utility, candidate_utility, candidate_cost_units,
      candidate_latency_ms, state_after, recorded_at)
    VALUES (p_tenant, p_agent, p_environment, p_procedure_id, p_case_id, p.qualification_count + p.monitoring_count,
      p_phase, p_evaluator_id, p_evaluation_contract, p_evidence_ref, p_evidence_key, p_baseline_utility,
      p_candidate_utility, p_cost_units, p_latency_ms, p.state, now_ms)
    ON CONFLICT DO NOTHING;
    IF FOUND THEN
      IF p.state <> state_before THEN
        -- lib/ledger/arithmetic.ts's REASON_* (tests/integration/ledger-core.test.ts compares them).
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
      -- The row lock keeps the row where it is until the commit.
      UPDATE ledger_procedures x SET
        state = p.state,
        qualification_count = p.qualification_count,
        mean_improvement = p.mean_improvement,
        mean_candidate_utility = p.mean_candidate_utility,
        budget_violations = p.budget_violations,
        lower_improvement_bound = p.lower_improvement_bound,
        monitoring_count = p.monitoring_count,
        failure_streak = p.failure_streak
      WHERE x.ctid = p.ctid;
      SELECT 'recorded', p.state, now_ms INTO outcome, state_after, recorded_at;
      RETURN;
    END IF;
  END IF;

  -- Refused, or the case or its evidence is already stored: classify in the spec's order. A
  -- statement after the lock, so a new snapshot: it sees what the previous holder committed.
  SELECT e.*, EXISTS (SELECT 1 FROM ledger_evaluations c
      WHERE c.tenant = p_tenant AND c.agent = p_agent AND c.environment = p_environment
        AND c.procedure_id = p_procedure_id AND c.evidence_key = p_evidence_key AND c.evidence_ref = p_evidence_ref) AS claimed
  INTO r
  FROM (SELECT) AS one LEFT JOIN ledger_evaluations e
    ON e.tenant = p_tenant AND e.agent = p_agent AND e.environment = p_environment
   AND e.procedure_id = p_procedure_id AND e.case_id = p_case_id;
  -- 3. Duplicate or conflict, whatever the state is now. Every field; floats compare as
  -- numbers, so -0 equals 0 as in the reference.
  IF r.case_id IS NOT NULL THEN
    IF r.phase = p_phase AND r.evaluator_id = p_evaluator_id AND r.evaluation_contract = p_evaluation_contract
      AND r.evidence_ref = p_evidence_ref AND r.baseline_utility = p_baseline_utility
      AND r.candidate_utility = p_candidate_utility AND r.candidate_cost_units = p_cost_units
      AND r.candidate_latency_ms = p_latency_ms THEN
      SELECT 'duplicate', r.state_after, r.recorded_at, r.phase, r.evaluator_id, r.evaluation_contract, r.evidence_ref,
        r.baseline_utility, r.candidate_utility, r.candidate_cost_units, r.candidate_latency_ms
      INTO outcome, state_after, recorded_at, phase, evaluator_id, evaluation_contract, evidence_ref,
        baseline_utility, candidate_utility, candidate_cost_units, candidate_latency_ms;
    ELSE
      outcome := 'case_conflict';
    END IF;
    RETURN;
  END IF;
  -- 5, 6, 7, 8.
  outcome := CASE
    WHEN refusal IN ('evaluator_mismatch', 'evidence_is_source') THEN refusal
    WHEN r.claimed THEN 'evidence_claimed'
    ELSE refusal
  END;
  IF outcome IS NULL THEN
    RAISE EXCEPTION 'ledger_record_evaluation: the receipt conflicted on neither its case nor its evidence';
  END IF;
END
$$;
