-- CreateEnum
CREATE TYPE "WebhookDeliveryStatus" AS ENUM ('PENDING', 'DELIVERED', 'FAILED');

-- CreateTable
CREATE TABLE "webhook_endpoints" (
    "id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "events" TEXT[],
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "secret_ciphertext" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" "WebhookDeliveryStatus" NOT NULL DEFAULT 'PENDING',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "response_code" INTEGER,
    "last_error" TEXT,
    "attempt_log" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_attempt_at" TIMESTAMPTZ(3),
    "delivered_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhook_deliveries_endpoint_id_created_at_idx" ON "webhook_deliveries"("endpoint_id", "created_at" DESC);

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written (Prisma's schema language cannot express functions or triggers).
-- The webhook outbox: webhook_enqueue(type, data) writes one delivery per enabled endpoint
-- subscribed to `type`, and a `webhook.deliver` job for each, in the caller's transaction, so
-- an event is announced exactly when the change that causes it commits. TypeScript callers use
-- lib/webhooks/emit.ts; the triggers below cover changes also made in SQL (the ledger's
-- suspension trigger, ledger_record_evaluation) or in several places (skill lifecycle, jobs).
-- `data` carries ids, names and statuses only (never request, goal or conversation text).
CREATE FUNCTION webhook_enqueue(p_type text, p_data jsonb) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  n integer;
BEGIN
  WITH d AS (
    INSERT INTO webhook_deliveries (id, endpoint_id, event_type, payload)
    SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), e.id, p_type,
      jsonb_build_object('type', p_type, 'timestamp', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'data', p_data)
    FROM webhook_endpoints e
    WHERE e.enabled AND p_type = ANY(e.events)
    RETURNING id
  )
  INSERT INTO jobs (kind, payload) SELECT 'webhook.deliver', jsonb_build_object('delivery_id', d.id) FROM d;
  GET DIAGNOSTICS n = ROW_COUNT;
  RETURN n;
END
$$;

-- Skill lifecycle: every transition writes a skill_events row (lib/learning/skill-lifecycle.ts,
-- the drift monitor, the ledger's suspension trigger), so one trigger there sees them all.
CREATE FUNCTION webhook_skill_event() RETURNS trigger
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
  END;
  IF kind IS NOT NULL THEN
    PERFORM webhook_enqueue(kind, jsonb_build_object('skill_id', s.id, 'agent_id', s.agent_id, 'name', s.name,
      'version', s.version, 'status', lower(s.status)));
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER webhook_skill_event AFTER INSERT ON skill_events
FOR EACH ROW EXECUTE FUNCTION webhook_skill_event();

-- Ledger: a procedure qualified (CANDIDATE → ACTIVE) or suspended (ACTIVE → SUSPENDED), as its
-- decision row records it (ledger_record_evaluation).
CREATE FUNCTION webhook_ledger_decision() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_enqueue(
    CASE NEW.to_state WHEN 'ACTIVE' THEN 'ledger_procedure.qualified' ELSE 'ledger_procedure.suspended' END,
    jsonb_build_object('tenant', NEW.tenant, 'agent', NEW.agent, 'environment', NEW.environment,
      'procedure_id', NEW.procedure_id, 'from_state', lower(NEW.from_state::text), 'to_state', lower(NEW.to_state::text),
      'triggering_case', NEW.triggering_case));
  RETURN NULL;
END
$$;

CREATE TRIGGER webhook_ledger_decision AFTER INSERT ON ledger_decisions
FOR EACH ROW WHEN (NEW.to_state IN ('ACTIVE', 'SUSPENDED'))
EXECUTE FUNCTION webhook_ledger_decision();

-- A background job that ran out of attempts (lib/jobs/queue.ts failJob). Webhook deliveries
-- are left out: they schedule their own retries and never die, and announcing one would loop.
CREATE FUNCTION webhook_job_dead() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_enqueue('job.dead', jsonb_build_object('job_id', NEW.id::text, 'kind', NEW.kind,
    'agent_id', NEW.agent_id, 'attempts', NEW.attempts));
  RETURN NULL;
END
$$;

CREATE TRIGGER webhook_job_dead AFTER UPDATE OF status ON jobs
FOR EACH ROW WHEN (NEW.status = 'DEAD' AND OLD.status IS DISTINCT FROM 'DEAD' AND NEW.kind <> 'webhook.deliver')
EXECUTE FUNCTION webhook_job_dead();
