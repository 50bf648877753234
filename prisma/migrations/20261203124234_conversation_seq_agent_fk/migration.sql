-- Conversation messages: a sequence in ingestion order (persona reflection's evidence mark moves
-- along it instead of received_at, a transaction's start time), and a foreign key to agents.

-- Existing messages are numbered in the order they were received.
ALTER TABLE "conversation_messages" ADD COLUMN "seq" BIGINT;
UPDATE "conversation_messages" m SET "seq" = o.n
FROM (SELECT "id", row_number() OVER (ORDER BY "received_at", "id") AS n FROM "conversation_messages") o
WHERE m."id" = o."id";
CREATE SEQUENCE "conversation_messages_seq_seq" OWNED BY "conversation_messages"."seq";
SELECT setval('"conversation_messages_seq_seq"', COALESCE((SELECT max("seq") FROM "conversation_messages"), 0) + 1, false);
ALTER TABLE "conversation_messages" ALTER COLUMN "seq" SET DEFAULT nextval('"conversation_messages_seq_seq"'), ALTER COLUMN "seq" SET NOT NULL;
CREATE UNIQUE INDEX "conversation_messages_seq_key" ON "conversation_messages"("seq");
CREATE INDEX "conversation_messages_user_id_seq_idx" ON "conversation_messages"("user_id", "seq");

-- A persona's mark: the newest message its finished reflections read, as a sequence number.
ALTER TABLE "account_personas" ADD COLUMN "evidence_seq" BIGINT;
UPDATE "account_personas" p SET "evidence_seq" = (
  SELECT max(m."seq") FROM "conversation_messages" m
  WHERE m."user_id" = p."user_id" AND m."role" = 'user' AND m."received_at" <= p."evidence_watermark")
WHERE p."evidence_watermark" IS NOT NULL;
ALTER TABLE "account_personas" DROP COLUMN "evidence_watermark";

-- Messages of agents that no longer exist (an ingestion that raced the agent's deletion) have
-- no agent to be shown under and no deletion left to remove them: they go before the key.
DELETE FROM "conversation_messages" m WHERE NOT EXISTS (SELECT 1 FROM "agents" a WHERE a."id" = m."agent_id");
ALTER TABLE "conversation_messages" ADD CONSTRAINT "conversation_messages_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;
