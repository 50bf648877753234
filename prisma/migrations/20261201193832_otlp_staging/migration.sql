-- CreateTable
CREATE TABLE "otlp_spans" (
    "trace_id" TEXT NOT NULL,
    "span_id" TEXT NOT NULL,
    "parent_span_id" TEXT,
    "name" TEXT NOT NULL,
    "start_ns" BIGINT NOT NULL,
    "end_ns" BIGINT NOT NULL,
    "status_code" INTEGER NOT NULL,
    "status_message" TEXT,
    "service_name" TEXT,
    "attributes" JSONB NOT NULL,
    "events" JSONB NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "otlp_spans_pkey" PRIMARY KEY ("trace_id","span_id")
);

-- CreateTable
CREATE TABLE "otlp_traces" (
    "trace_id" TEXT NOT NULL,
    "makes_runs" BOOLEAN NOT NULL DEFAULT false,
    "queued" BOOLEAN NOT NULL DEFAULT false,
    "last_span_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "assembled_at" TIMESTAMPTZ(3),

    CONSTRAINT "otlp_traces_pkey" PRIMARY KEY ("trace_id")
);

-- CreateIndex
CREATE INDEX "otlp_traces_last_span_at_idx" ON "otlp_traces"("last_span_at");
