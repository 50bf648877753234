-- CreateEnum
CREATE TYPE "LedgerState" AS ENUM ('CANDIDATE', 'ACTIVE', 'REJECTED', 'SUSPENDED');

-- CreateEnum
CREATE TYPE "LedgerPhase" AS ENUM ('QUALIFICATION', 'MONITORING');

-- CreateTable
CREATE TABLE "ledger_schema" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "version" INTEGER NOT NULL,

    CONSTRAINT "ledger_schema_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ledger_procedures" (
    "tenant" TEXT NOT NULL,
    "agent" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "procedure_id" TEXT NOT NULL,
    "task" TEXT NOT NULL,
    "baseline_revision" TEXT NOT NULL,
    "instructions" TEXT NOT NULL,
    "instruction_bytes" INTEGER NOT NULL,
    "source_refs" TEXT[],
    "qualification_trials" INTEGER NOT NULL,
    "confidence_delta" DOUBLE PRECISION NOT NULL,
    "min_improvement" DOUBLE PRECISION NOT NULL,
    "min_candidate_utility" DOUBLE PRECISION NOT NULL,
    "max_cost_units" BIGINT NOT NULL,
    "max_latency_ms" BIGINT NOT NULL,
    "max_failure_streak" INTEGER NOT NULL,
    "evaluator_id" TEXT NOT NULL,
    "evaluation_contract" TEXT NOT NULL,
    "selection_key" BYTEA NOT NULL,
    "state" "LedgerState" NOT NULL DEFAULT 'CANDIDATE',
    "qualification_count" INTEGER NOT NULL DEFAULT 0,
    "mean_improvement" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "mean_candidate_utility" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "budget_violations" INTEGER NOT NULL DEFAULT 0,
    "lower_improvement_bound" DOUBLE PRECISION,
    "monitoring_count" BIGINT NOT NULL DEFAULT 0,
    "failure_streak" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ledger_procedures_pkey" PRIMARY KEY ("tenant","agent","environment","procedure_id")
);

-- CreateTable
CREATE TABLE "ledger_evaluations" (
    "tenant" TEXT NOT NULL,
    "agent" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "procedure_id" TEXT NOT NULL,
    "case_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "phase" "LedgerPhase" NOT NULL,
    "evaluator_id" TEXT NOT NULL,
    "evaluation_contract" TEXT NOT NULL,
    "evidence_ref" TEXT NOT NULL,
    "evidence_key" BYTEA NOT NULL,
    "baseline_utility" DOUBLE PRECISION NOT NULL,
    "candidate_utility" DOUBLE PRECISION NOT NULL,
    "candidate_cost_units" BIGINT NOT NULL,
    "candidate_latency_ms" BIGINT NOT NULL,
    "state_after" "LedgerState" NOT NULL,
    "recorded_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ledger_evaluations_pkey" PRIMARY KEY ("tenant","agent","environment","procedure_id","case_id")
);

-- CreateTable
CREATE TABLE "ledger_decisions" (
    "tenant" TEXT NOT NULL,
    "agent" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "procedure_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "from_state" "LedgerState" NOT NULL,
    "to_state" "LedgerState" NOT NULL,
    "reason" TEXT NOT NULL,
    "triggering_case" TEXT NOT NULL,
    "recorded_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ledger_decisions_pkey" PRIMARY KEY ("tenant","agent","environment","procedure_id","seq")
);

-- CreateIndex
CREATE INDEX "ledger_procedures_selection_idx" ON "ledger_procedures"("tenant", "agent", "environment", "selection_key", "state", "lower_improvement_bound" DESC, "procedure_id");

-- CreateIndex
CREATE INDEX "ledger_procedures_created_at_idx" ON "ledger_procedures"("created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "ledger_evaluations_evidence_key" ON "ledger_evaluations"("tenant", "agent", "environment", "procedure_id", "evidence_key");

-- CreateIndex
CREATE UNIQUE INDEX "ledger_evaluations_seq_key" ON "ledger_evaluations"("tenant", "agent", "environment", "procedure_id", "seq");

-- AddForeignKey
ALTER TABLE "ledger_evaluations" ADD CONSTRAINT "ledger_evaluations_tenant_agent_environment_procedure_id_fkey" FOREIGN KEY ("tenant", "agent", "environment", "procedure_id") REFERENCES "ledger_procedures"("tenant", "agent", "environment", "procedure_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_decisions" ADD CONSTRAINT "ledger_decisions_tenant_agent_environment_procedure_id_fkey" FOREIGN KEY ("tenant", "agent", "environment", "procedure_id") REFERENCES "ledger_procedures"("tenant", "agent", "environment", "procedure_id") ON DELETE RESTRICT ON UPDATE CASCADE;
