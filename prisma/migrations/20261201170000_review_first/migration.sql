-- Idempotent (re-running it changes nothing more), as its integration test re-runs it.

-- Issue 12, review first: require_shadow now defaults to true. Agents whose stored learning
-- configuration never named it ran with the old default (false); they keep that value.
UPDATE "agents" SET "learning" = jsonb_set("learning", '{require_shadow}', 'false'::jsonb)
WHERE jsonb_typeof("learning") = 'object' AND NOT ("learning" ? 'require_shadow');

-- Issue 12, qualification: a ledger suspension of a skill's procedure (named
-- skill:<skill id>:v<version> in this deployment's tenant, lib/ledger/skills.ts) demotes that
-- skill version when it is ACTIVE, in the transaction that suspends the procedure
-- (ledger_record_evaluation's UPDATE). The same writes as lib/learning/skill-lifecycle.ts's
-- retireSkill: status and reason, unstamp the class's runs, bump skills_version (the context
-- caches), a lifecycle event, and its skill.demoted audit row (lib/audit/events.ts).
CREATE OR REPLACE FUNCTION ledger_suspension_demotes_skill() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  s record;
  why text := left('ledger procedure ' || NEW.procedure_id || ' was suspended: monitoring failure streak reached the policy limit', 2000);
  now_at timestamptz := now();
BEGIN
  IF NEW.tenant IS DISTINCT FROM (SELECT value FROM settings WHERE key = 'ledger:deployment_id') THEN
    RETURN NULL;
  END IF;
  FOR s IN
    UPDATE skills SET status = 'DEMOTED', demoted_at = now_at, demotion_reason = why, updated_at = now_at
    WHERE id = split_part(NEW.procedure_id, ':', 2) AND agent_id = NEW.agent AND status = 'ACTIVE'
      AND 'skill:' || id || ':v' || version = NEW.procedure_id
    RETURNING id, agent_id, version
  LOOP
    UPDATE workflows SET promoted_skill_id = NULL WHERE promoted_skill_id = s.id;
    UPDATE agents SET skills_version = skills_version + 1 WHERE id = s.agent_id;
    INSERT INTO skill_events (skill_id, agent_id, event, reason, actor, at) VALUES (s.id, s.agent_id, 'skill_demoted', why, 'ledger', now_at);
    INSERT INTO audit_events (actor_type, actor_label, action, target_type, target_id, request_id, details)
    VALUES ('system', 'system', 'skill.demoted', 'skill', s.id, 'ledger-suspension',
      jsonb_build_object('agent_id', s.agent_id, 'version', s.version, 'reason', why));
  END LOOP;
  RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS ledger_suspension_demotes_skill ON ledger_procedures;
CREATE TRIGGER ledger_suspension_demotes_skill
AFTER UPDATE OF state ON ledger_procedures
FOR EACH ROW
WHEN (OLD.state = 'ACTIVE' AND NEW.state = 'SUSPENDED' AND NEW.procedure_id LIKE 'skill:%')
EXECUTE FUNCTION ledger_suspension_demotes_skill();
