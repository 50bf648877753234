-- A staged trace is queued for assembly when it holds a span of a convention Proctor reads (not
-- only one that makes runs), so that a trace that settles without runs is found and recorded.
ALTER TABLE "otlp_traces" RENAME COLUMN "makes_runs" TO "known";

-- Traces received over OTLP that made no runs, per agent (NULL: none could be named) and reason.
CREATE TABLE "otlp_unmapped_traces" (
    "id" BIGSERIAL NOT NULL,
    "agent_id" TEXT,
    "reason" TEXT NOT NULL,
    "traces" BIGINT NOT NULL DEFAULT 0,
    "spans" BIGINT NOT NULL DEFAULT 0,
    "sample_span_name" TEXT NOT NULL,
    "sample_attribute_keys" TEXT[] NOT NULL,
    "first_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "otlp_unmapped_traces_pkey" PRIMARY KEY ("id")
);

-- One row per agent and reason, the rows without an agent included (NULLS NOT DISTINCT).
CREATE UNIQUE INDEX "otlp_unmapped_traces_agent_id_reason_key" ON "otlp_unmapped_traces"("agent_id", "reason") NULLS NOT DISTINCT;
