-- CreateEnum
CREATE TYPE "ExperimentStatus" AS ENUM ('DRAFT', 'RUNNING', 'COMPLETED', 'CANCELLED');

-- CreateTable
CREATE TABLE "experiments" (
    "id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "skill_id" TEXT NOT NULL,
    "skill_version" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "status" "ExperimentStatus" NOT NULL DEFAULT 'DRAFT',
    "model" TEXT NOT NULL,
    "repetitions" INTEGER NOT NULL,
    "arms" JSONB NOT NULL,
    "baseline_arm" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "system_prompt" TEXT NOT NULL DEFAULT '',
    "bootstrap_seed" INTEGER NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "completed_at" TIMESTAMPTZ(3),
    "ledger_outcome" JSONB,

    CONSTRAINT "experiments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "experiment_cases" (
    "experiment_id" TEXT NOT NULL,
    "case_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "request" TEXT NOT NULL,
    "user_id" TEXT,
    "expected_path" JSONB,
    "expected_hash" TEXT,
    "expected_answer" TEXT,
    "answer_match" TEXT NOT NULL DEFAULT 'exact',

    CONSTRAINT "experiment_cases_pkey" PRIMARY KEY ("experiment_id","case_id")
);

-- CreateTable
CREATE TABLE "experiment_runs" (
    "experiment_id" TEXT NOT NULL,
    "case_id" TEXT NOT NULL,
    "arm" TEXT NOT NULL,
    "repetition" INTEGER NOT NULL,
    "raw_workflow_count" INTEGER NOT NULL,
    "raw_workflow_ids" TEXT[],
    "developer_message" BOOLEAN NOT NULL,
    "skill_sha256" TEXT,
    "context_served_at" TIMESTAMPTZ(3) NOT NULL,
    "reported_at" TIMESTAMPTZ(3),
    "report_hash" TEXT,
    "steps" JSONB,
    "steps_hash" TEXT,
    "answer" TEXT,
    "prompt_tokens" INTEGER,
    "completion_tokens" INTEGER,
    "llm_calls" INTEGER,
    "inference_ms" INTEGER,
    "end_to_end_ms" INTEGER,

    CONSTRAINT "experiment_runs_pkey" PRIMARY KEY ("experiment_id","case_id","arm","repetition")
);

-- CreateIndex
CREATE INDEX "experiments_agent_id_created_at_idx" ON "experiments"("agent_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "experiments_skill_id_idx" ON "experiments"("skill_id");

-- AddForeignKey
ALTER TABLE "experiment_cases" ADD CONSTRAINT "experiment_cases_experiment_id_fkey" FOREIGN KEY ("experiment_id") REFERENCES "experiments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "experiment_runs" ADD CONSTRAINT "experiment_runs_experiment_id_fkey" FOREIGN KEY ("experiment_id") REFERENCES "experiments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "experiment_runs" ADD CONSTRAINT "experiment_runs_experiment_id_case_id_fkey" FOREIGN KEY ("experiment_id", "case_id") REFERENCES "experiment_cases"("experiment_id", "case_id") ON DELETE CASCADE ON UPDATE CASCADE;
