-- The classes API orders a page by (executions DESC, canonical_hash, user_scope): an index in that
-- exact order lets a page read only its own rows instead of sorting all of an agent's classes.

-- DropIndex
DROP INDEX "trajectory_classes_agent_id_executions_idx";

-- CreateIndex
CREATE INDEX "trajectory_classes_agent_id_executions_canonical_hash_user__idx" ON "trajectory_classes"("agent_id", "executions" DESC, "canonical_hash", "user_scope");
