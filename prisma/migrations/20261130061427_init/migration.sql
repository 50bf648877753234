-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "Role" AS ENUM ('ADMIN', 'VIEWER');

-- CreateEnum
CREATE TYPE "Outcome" AS ENUM ('SUCCESS', 'FAILURE');

-- CreateEnum
CREATE TYPE "OutcomeSource" AS ENUM ('REPORTED', 'RULE', 'EXECUTION');

-- CreateEnum
CREATE TYPE "SkillStatus" AS ENUM ('CANDIDATE', 'SHADOW', 'ACTIVE', 'DEPRECATED', 'DEMOTED');

-- CreateEnum
CREATE TYPE "InjectionRole" AS ENUM ('USER', 'DEVELOPER');

-- CreateEnum
CREATE TYPE "JobStatus" AS ENUM ('PENDING', 'RUNNING', 'DONE', 'DEAD');

-- CreateTable
CREATE TABLE "users" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "password_hash" TEXT,
    "role" "Role" NOT NULL DEFAULT 'VIEWER',
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_login_at" TIMESTAMPTZ(3),

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "scopes" TEXT[],
    "created_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_events" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor_type" TEXT NOT NULL,
    "actor_id" TEXT,
    "actor_label" TEXT,
    "actor_role" TEXT,
    "action" TEXT NOT NULL,
    "target_type" TEXT,
    "target_id" TEXT,
    "request_id" TEXT,
    "client_hash" TEXT,
    "details" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agents" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "tools" JSONB NOT NULL DEFAULT '[]',
    "learning" JSONB NOT NULL DEFAULT '{}',
    "outcome_rule" JSONB,
    "run_count" INTEGER NOT NULL DEFAULT 0,
    "last_run_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "agents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "workflows" (
    "id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "workflow_id" TEXT NOT NULL,
    "user_id" TEXT,
    "user_scope" TEXT NOT NULL DEFAULT '',
    "thread_id" TEXT,
    "root_trace_id" TEXT,
    "query" TEXT NOT NULL,
    "normalized_query" TEXT NOT NULL,
    "steps" JSONB NOT NULL,
    "execution_error" JSONB,
    "answer" TEXT,
    "outcome" "Outcome" NOT NULL,
    "outcome_source" "OutcomeSource" NOT NULL,
    "learning_error" TEXT,
    "canonical_signature" JSONB,
    "canonical_hash" TEXT,
    "canonical_version" INTEGER,
    "step_count" INTEGER NOT NULL DEFAULT 0,
    "promoted_skill_id" TEXT,
    "skills_activated" TEXT[],
    "shadow_evaluations" JSONB NOT NULL DEFAULT '[]',
    "embedding" REAL[],
    "embedder_id" TEXT NOT NULL,
    "body_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "workflows_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "trajectory_classes" (
    "agent_id" TEXT NOT NULL,
    "user_scope" TEXT NOT NULL,
    "canonical_hash" TEXT NOT NULL,
    "signature" JSONB NOT NULL,
    "tools" TEXT[],
    "executions" INTEGER NOT NULL DEFAULT 0,
    "successes" INTEGER NOT NULL DEFAULT 0,
    "distinct_queries" INTEGER NOT NULL DEFAULT 0,
    "first_seen" TIMESTAMPTZ(3) NOT NULL,
    "last_seen" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "trajectory_classes_pkey" PRIMARY KEY ("agent_id","user_scope","canonical_hash")
);

-- CreateTable
CREATE TABLE "trajectory_class_queries" (
    "agent_id" TEXT NOT NULL,
    "user_scope" TEXT NOT NULL,
    "canonical_hash" TEXT NOT NULL,
    "normalized_query" TEXT NOT NULL,
    "first_seen" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "trajectory_class_queries_pkey" PRIMARY KEY ("agent_id","user_scope","canonical_hash","normalized_query")
);

-- CreateTable
CREATE TABLE "trajectory_class_days" (
    "agent_id" TEXT NOT NULL,
    "user_scope" TEXT NOT NULL,
    "canonical_hash" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "executions" INTEGER NOT NULL DEFAULT 0,
    "successes" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "trajectory_class_days_pkey" PRIMARY KEY ("agent_id","user_scope","canonical_hash","day")
);

-- CreateTable
CREATE TABLE "skills" (
    "id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "user_scope" TEXT NOT NULL,
    "user_id" TEXT,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "preconditions" TEXT[],
    "tools" TEXT[],
    "queries" TEXT[],
    "content" TEXT NOT NULL,
    "status" "SkillStatus" NOT NULL DEFAULT 'CANDIDATE',
    "version" INTEGER NOT NULL DEFAULT 1,
    "injection_role" "InjectionRole" NOT NULL DEFAULT 'USER',
    "template_distilled" BOOLEAN NOT NULL DEFAULT false,
    "source_canonical_hash" TEXT NOT NULL,
    "source_workflow_ids" TEXT[],
    "baseline" JSONB NOT NULL,
    "activations" INTEGER NOT NULL DEFAULT 0,
    "successes" INTEGER NOT NULL DEFAULT 0,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "deviations" INTEGER NOT NULL DEFAULT 0,
    "last_activated_at" TIMESTAMPTZ(3),
    "recent_outcomes" BOOLEAN[],
    "shadow_stats" JSONB NOT NULL DEFAULT '{}',
    "embedding" REAL[],
    "embedder_id" TEXT NOT NULL,
    "query_embeddings" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "promoted_at" TIMESTAMPTZ(3),
    "demoted_at" TIMESTAMPTZ(3),
    "demotion_reason" TEXT,
    "activation_reason" TEXT,

    CONSTRAINT "skills_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "promotion_reports" (
    "id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "report" JSONB NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "finished_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "promotion_reports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "jobs" (
    "id" BIGSERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "agent_id" TEXT,
    "payload" JSONB NOT NULL,
    "status" "JobStatus" NOT NULL DEFAULT 'PENDING',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "run_after" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "locked_at" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "conversation_messages" (
    "id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "thread_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "root_trace_id" TEXT,
    "message_id" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "timestamp" TIMESTAMPTZ(3) NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "conversation_messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "settings" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "settings_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_prefix_key" ON "api_keys"("prefix");

-- CreateIndex
CREATE INDEX "audit_events_at_idx" ON "audit_events"("at");

-- CreateIndex
CREATE INDEX "audit_events_action_at_idx" ON "audit_events"("action", "at");

-- CreateIndex
CREATE INDEX "audit_events_actor_id_at_idx" ON "audit_events"("actor_id", "at");

-- CreateIndex
CREATE INDEX "audit_events_target_type_target_id_at_idx" ON "audit_events"("target_type", "target_id", "at");

-- CreateIndex
CREATE INDEX "workflows_agent_id_user_scope_canonical_hash_created_at_idx" ON "workflows"("agent_id", "user_scope", "canonical_hash", "created_at" DESC);

-- CreateIndex
CREATE INDEX "workflows_agent_id_created_at_idx" ON "workflows"("agent_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "workflows_promoted_skill_id_idx" ON "workflows"("promoted_skill_id");

-- CreateIndex
CREATE INDEX "workflows_agent_id_user_id_thread_id_idx" ON "workflows"("agent_id", "user_id", "thread_id");

-- CreateIndex
CREATE UNIQUE INDEX "workflows_agent_id_workflow_id_key" ON "workflows"("agent_id", "workflow_id");

-- CreateIndex
CREATE INDEX "trajectory_classes_agent_id_last_seen_idx" ON "trajectory_classes"("agent_id", "last_seen" DESC);

-- CreateIndex
CREATE INDEX "trajectory_classes_agent_id_executions_idx" ON "trajectory_classes"("agent_id", "executions" DESC);

-- CreateIndex
CREATE INDEX "skills_agent_id_status_idx" ON "skills"("agent_id", "status");

-- CreateIndex
CREATE INDEX "skills_agent_id_user_scope_source_canonical_hash_idx" ON "skills"("agent_id", "user_scope", "source_canonical_hash");

-- CreateIndex
CREATE INDEX "promotion_reports_agent_id_started_at_idx" ON "promotion_reports"("agent_id", "started_at" DESC);

-- CreateIndex
CREATE INDEX "jobs_status_run_after_idx" ON "jobs"("status", "run_after");

-- CreateIndex
CREATE INDEX "jobs_kind_agent_id_status_idx" ON "jobs"("kind", "agent_id", "status");

-- CreateIndex
CREATE INDEX "conversation_messages_user_id_timestamp_idx" ON "conversation_messages"("user_id", "timestamp");

-- CreateIndex
CREATE INDEX "conversation_messages_agent_id_user_id_thread_id_timestamp_idx" ON "conversation_messages"("agent_id", "user_id", "thread_id", "timestamp");

-- CreateIndex
CREATE UNIQUE INDEX "conversation_messages_agent_id_thread_id_message_id_key" ON "conversation_messages"("agent_id", "thread_id", "message_id");

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workflows" ADD CONSTRAINT "workflows_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trajectory_classes" ADD CONSTRAINT "trajectory_classes_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "skills" ADD CONSTRAINT "skills_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;
