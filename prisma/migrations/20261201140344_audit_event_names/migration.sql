-- Audit events get one naming scheme, `<target>.<past-tense verb>` (lib/audit/events.ts), and
-- their details the shapes of the typed union. audit_events is append-only; its guard trigger
-- is switched off for this one rewrite only (the whole script runs as one transaction).

ALTER TABLE "audit_events" DISABLE TRIGGER audit_events_no_update_delete;

UPDATE "audit_events"
SET
  action = CASE action
    WHEN 'user.bootstrap' THEN 'user.bootstrapped'
    WHEN 'user.create' THEN 'user.created'
    WHEN 'user.role_change' THEN 'user.updated'
    WHEN 'user.deactivate' THEN 'user.updated'
    WHEN 'user.reactivate' THEN 'user.updated'
    WHEN 'api_key.bootstrap' THEN 'api_key.bootstrapped'
    WHEN 'api_key.create' THEN 'api_key.created'
    WHEN 'api_key.revoke' THEN 'api_key.revoked'
    WHEN 'agent.create' THEN 'agent.created'
    WHEN 'agent.replace' THEN 'agent.replaced'
    WHEN 'agent.learning_updated' THEN 'learning_config.updated'
    WHEN 'learning.promotion_cycle' THEN 'promotion_cycle.ran'
    WHEN 'learning.class_distilled' THEN 'class.distilled'
    WHEN 'skill.qualification_started' THEN 'skill_qualification.started'
    WHEN 'persona_profile_viewed' THEN 'persona_profile.viewed'
    WHEN 'persona_reflect_requested' THEN 'persona_reflection.requested'
    WHEN 'persona_daily_review_started' THEN 'persona_reflection.requested'
    WHEN 'persona_approve_requested' THEN 'persona_proposal.approved'
    WHEN 'persona_dismiss_requested' THEN 'persona_proposal.dismissed'
    WHEN 'persona_pause_requested' THEN
      CASE WHEN (details ->> 'paused')::boolean THEN 'persona_profile.paused' ELSE 'persona_profile.resumed' END
    WHEN 'persona_schedule_requested' THEN
      CASE WHEN (details ->> 'daily_enabled')::boolean THEN 'persona_daily_review.enabled' ELSE 'persona_daily_review.disabled' END
    WHEN 'persona_undo_requested' THEN 'persona_change.undone'
  END,
  details = CASE
    -- "Distill now" is its own event type now, so its trigger is implied.
    WHEN action = 'learning.class_distilled' THEN details - 'trigger'
    -- Every skill event names the skill's agent, for the link to the skill.
    WHEN action = 'skill.qualification_started' THEN
      details || COALESCE((SELECT jsonb_build_object('agent_id', s.agent_id) FROM "skills" s WHERE s.id = "audit_events".target_id), '{}'::jsonb)
    WHEN action = 'persona_reflect_requested' THEN '{"trigger": "manual"}'::jsonb
    WHEN action = 'persona_daily_review_started' THEN '{"trigger": "daily"}'::jsonb
    -- The flag is in the event's name; every persona event is about a persona profile.
    WHEN action = 'persona_pause_requested' THEN details - 'content_mode' - 'paused'
    WHEN action = 'persona_schedule_requested' THEN details - 'content_mode' - 'daily_enabled'
    WHEN action LIKE 'persona\_%' THEN details - 'content_mode'
    ELSE details
  END
WHERE action IN (
  'user.bootstrap', 'user.create', 'user.role_change', 'user.deactivate', 'user.reactivate',
  'api_key.bootstrap', 'api_key.create', 'api_key.revoke',
  'agent.create', 'agent.replace', 'agent.learning_updated',
  'learning.promotion_cycle', 'learning.class_distilled', 'skill.qualification_started',
  'persona_profile_viewed', 'persona_reflect_requested', 'persona_daily_review_started',
  'persona_approve_requested', 'persona_dismiss_requested', 'persona_pause_requested',
  'persona_schedule_requested', 'persona_undo_requested'
);

ALTER TABLE "audit_events" ENABLE TRIGGER audit_events_no_update_delete;
