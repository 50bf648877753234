-- CreateTable
CREATE TABLE "skill_deviations" (
    "id" BIGSERIAL NOT NULL,
    "skill_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "workflow_run_id" TEXT NOT NULL,
    "canonical_hash" TEXT,
    "outcome" "Outcome" NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "skill_deviations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "skill_deviations_skill_id_at_idx" ON "skill_deviations"("skill_id", "at" DESC);

-- CreateIndex
CREATE INDEX "skill_deviations_workflow_run_id_idx" ON "skill_deviations"("workflow_run_id");

-- CreateIndex
CREATE UNIQUE INDEX "skill_deviations_skill_id_workflow_run_id_key" ON "skill_deviations"("skill_id", "workflow_run_id");

-- AddForeignKey
ALTER TABLE "skill_deviations" ADD CONSTRAINT "skill_deviations_skill_id_fkey" FOREIGN KEY ("skill_id") REFERENCES "skills"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "skill_deviations" ADD CONSTRAINT "skill_deviations_workflow_run_id_fkey" FOREIGN KEY ("workflow_run_id") REFERENCES "workflows"("id") ON DELETE CASCADE ON UPDATE CASCADE;
