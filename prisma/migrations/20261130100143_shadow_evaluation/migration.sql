-- AlterTable
ALTER TABLE "agents" ADD COLUMN     "shadow_dropped" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "shadow_evaluations" (
    "id" BIGSERIAL NOT NULL,
    "agent_id" TEXT NOT NULL,
    "workflow_run_id" TEXT NOT NULL,
    "skill_id" TEXT NOT NULL,
    "skill_version" INTEGER NOT NULL,
    "evaluator_version" TEXT NOT NULL,
    "record" JSONB NOT NULL,
    "evaluated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "shadow_evaluations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "shadow_evaluations_skill_id_evaluated_at_idx" ON "shadow_evaluations"("skill_id", "evaluated_at" DESC);

-- CreateIndex
CREATE INDEX "shadow_evaluations_agent_id_evaluated_at_idx" ON "shadow_evaluations"("agent_id", "evaluated_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "shadow_evaluations_workflow_run_id_skill_id_evaluator_versi_key" ON "shadow_evaluations"("workflow_run_id", "skill_id", "evaluator_version");

-- AddForeignKey
ALTER TABLE "shadow_evaluations" ADD CONSTRAINT "shadow_evaluations_workflow_run_id_fkey" FOREIGN KEY ("workflow_run_id") REFERENCES "workflows"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "shadow_evaluations" ADD CONSTRAINT "shadow_evaluations_skill_id_fkey" FOREIGN KEY ("skill_id") REFERENCES "skills"("id") ON DELETE CASCADE ON UPDATE CASCADE;
