-- Retries of dead jobs are audited as job.retried for every kind of job (was shadow_job.retried,
-- for shadow evaluations only); the old rows take the new name and shape (attempts and the
-- error's class were not kept then). audit_events is append-only: its guard trigger is switched
-- off for this one rewrite (the script runs as one transaction).
ALTER TABLE "audit_events" DISABLE TRIGGER audit_events_no_update_delete;

UPDATE "audit_events"
SET "action" = 'job.retried',
    "details" = "details" || '{"attempts": null, "error_class": null}'::jsonb
WHERE "action" = 'shadow_job.retried';

ALTER TABLE "audit_events" ENABLE TRIGGER audit_events_no_update_delete;
