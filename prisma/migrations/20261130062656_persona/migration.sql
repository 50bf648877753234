-- CreateTable
CREATE TABLE "account_personas" (
    "user_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "persona_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "goals" TEXT NOT NULL DEFAULT '',
    "version" INTEGER NOT NULL DEFAULT 1,
    "revision" INTEGER NOT NULL DEFAULT 0,
    "paused" BOOLEAN NOT NULL DEFAULT false,
    "daily_enabled" BOOLEAN NOT NULL DEFAULT false,
    "history_limit" INTEGER NOT NULL DEFAULT 50,
    "review_state" TEXT NOT NULL DEFAULT 'not_reviewed',
    "reviewing_id" TEXT,
    "reviewing_since" TIMESTAMPTZ(3),
    "last_review_at" TIMESTAMPTZ(3),
    "evidence_watermark" TIMESTAMPTZ(3),
    "next_daily_check_at" TIMESTAMPTZ(3),
    "last_daily_check_at" TIMESTAMPTZ(3),
    "last_daily_outcome" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "account_personas_pkey" PRIMARY KEY ("user_id")
);

-- CreateTable
CREATE TABLE "persona_history" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "action" TEXT NOT NULL,
    "actor_id" TEXT NOT NULL,
    "review_id" TEXT,
    "proposal_id" TEXT,
    "reason" TEXT NOT NULL,
    "goals_before" TEXT NOT NULL,
    "goals_after" TEXT NOT NULL,
    "evidence" JSONB NOT NULL DEFAULT '[]',
    "trace_thread_id" TEXT,
    "trace_root_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "persona_history_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "persona_proposals" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "review_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "goals_old" TEXT NOT NULL,
    "goals_new" TEXT NOT NULL,
    "evidence" JSONB NOT NULL DEFAULT '[]',
    "base_version" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decided_at" TIMESTAMPTZ(3),
    "decided_by" TEXT,

    CONSTRAINT "persona_proposals_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "persona_reviews" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "actor_id" TEXT NOT NULL,
    "reason" TEXT,
    "failure" TEXT,
    "evidence_count" INTEGER NOT NULL DEFAULT 0,
    "selected_count" INTEGER NOT NULL DEFAULT 0,
    "evidence_thread_ids" TEXT[],
    "trace_thread_id" TEXT NOT NULL,
    "trace_root_id" TEXT NOT NULL,
    "model" TEXT,
    "input_tokens" INTEGER,
    "output_tokens" INTEGER,
    "duration_ms" INTEGER,
    "estimated_cost_usd" DOUBLE PRECISION,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "persona_reviews_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "account_personas_daily_enabled_next_daily_check_at_idx" ON "account_personas"("daily_enabled", "next_daily_check_at");

-- CreateIndex
CREATE UNIQUE INDEX "persona_history_user_id_version_key" ON "persona_history"("user_id", "version");

-- CreateIndex
CREATE INDEX "persona_proposals_user_id_status_idx" ON "persona_proposals"("user_id", "status");

-- CreateIndex
CREATE INDEX "persona_reviews_user_id_started_at_idx" ON "persona_reviews"("user_id", "started_at" DESC);
