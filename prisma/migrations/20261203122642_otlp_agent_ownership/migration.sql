-- Agents OTLP ingestion declared itself (and no admin declared since): only their toolboxes grow
-- from traces. Agents whose agent.created came from the ingestion and no admin replaced since.
ALTER TABLE "agents" ADD COLUMN "auto_declared" BOOLEAN NOT NULL DEFAULT false;
UPDATE "agents" a SET "auto_declared" = true
WHERE EXISTS (SELECT 1 FROM "audit_events" e WHERE e."action" = 'agent.created' AND e."target_id" = a."id" AND e."actor_type" = 'system' AND e."request_id" = 'otlp')
  AND NOT EXISTS (SELECT 1 FROM "audit_events" e WHERE e."action" = 'agent.replaced' AND e."target_id" = a."id");

-- The ingest key whose export first staged a trace: the actor of what its assembly declares.
ALTER TABLE "otlp_traces" ADD COLUMN "api_key_id" TEXT;

-- Agents whose deletion started: never declared again by OTLP ingestion until an admin declares them.
CREATE TABLE "agent_tombstones" (
    "agent_id" TEXT NOT NULL,
    "deleted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_tombstones_pkey" PRIMARY KEY ("agent_id")
);
INSERT INTO "agent_tombstones" ("agent_id", "deleted_at") SELECT "id", "deleting_at" FROM "agents" WHERE "deleting_at" IS NOT NULL;
