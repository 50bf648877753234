-- A reviewer can reject a shadow or candidate skill: status REJECTED, dated and explained in
-- demoted_at / demotion_reason like the other retirements, so the class's gates count only the
-- runs recorded after it (the retirement window) before it is distilled again.
ALTER TYPE "SkillStatus" ADD VALUE IF NOT EXISTS 'REJECTED';

-- The webhook for it: skill_events 'skill_rejected' → skill.rejected.
CREATE OR REPLACE FUNCTION webhook_skill_event() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  s record;
  kind text;
BEGIN
  SELECT id, agent_id, name, version, status::text AS status INTO s FROM skills WHERE id = NEW.skill_id;
  IF NOT FOUND THEN RETURN NULL; END IF;
  kind := CASE
    WHEN NEW.event = 'skill_candidate_created' AND s.status = 'SHADOW' THEN 'skill.shadow_created'
    WHEN NEW.event IN ('skill_activated', 'skill_promoted') THEN 'skill.activated'
    WHEN NEW.event = 'skill_demoted' THEN 'skill.demoted'
    WHEN NEW.event = 'skill_deprecated' THEN 'skill.deprecated'
    WHEN NEW.event = 'skill_rejected' THEN 'skill.rejected'
  END;
  IF kind IS NOT NULL THEN
    PERFORM webhook_enqueue(kind, jsonb_build_object('skill_id', s.id, 'agent_id', s.agent_id, 'name', s.name,
      'version', s.version, 'status', lower(s.status)));
  END IF;
  RETURN NULL;
END
$$;
