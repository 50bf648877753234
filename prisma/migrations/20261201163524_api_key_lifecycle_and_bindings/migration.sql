-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "agents" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "evaluator_id" TEXT,
ADD COLUMN     "expires_at" TIMESTAMPTZ(3),
ADD COLUMN     "last_used_address" TEXT,
ADD COLUMN     "previous_hash" TEXT,
ADD COLUMN     "previous_valid_until" TIMESTAMPTZ(3),
ADD COLUMN     "rotated_at" TIMESTAMPTZ(3),
ADD COLUMN     "tenant" TEXT;

-- CreateIndex
CREATE INDEX "workflows_agent_id_root_trace_id_idx" ON "workflows"("agent_id", "root_trace_id");


-- Issue 12: the ledger's write scopes split from `ingest`. Keys that could propose and evaluate
-- through `ingest` keep proposing (`ledger:propose`, what agents do); evaluating now needs a
-- separate `ledger:evaluate` key bound to one evaluator_id, so none is granted here. Existing
-- keys stay unbound (any tenant, any agent) and never expire.
UPDATE "api_keys" SET "scopes" = array_append("scopes", 'ledger:propose')
WHERE 'ingest' = ANY("scopes") AND NOT ('ledger:propose' = ANY("scopes"));
