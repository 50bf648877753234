-- CreateIndex
CREATE INDEX "workflows_agent_id_user_scope_created_at_idx" ON "workflows"("agent_id", "user_scope", "created_at" DESC);
