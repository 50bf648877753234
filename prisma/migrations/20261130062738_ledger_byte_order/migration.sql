-- Hand-written (Prisma's schema language has no collations). Selection breaks equal bounds by
-- procedure id in UTF-8 byte order (ledger spec §4): the "C" collation compares bytes, so the
-- selection index itself is in that order. Referencing columns get the same collation so that
-- the foreign keys compare like with like. The tables are empty when this runs.
ALTER TABLE "ledger_evaluations" DROP CONSTRAINT "ledger_evaluations_tenant_agent_environment_procedure_id_fkey";
ALTER TABLE "ledger_decisions" DROP CONSTRAINT "ledger_decisions_tenant_agent_environment_procedure_id_fkey";

ALTER TABLE "ledger_procedures" ALTER COLUMN "procedure_id" TYPE TEXT COLLATE "C";
ALTER TABLE "ledger_evaluations" ALTER COLUMN "procedure_id" TYPE TEXT COLLATE "C";
ALTER TABLE "ledger_decisions" ALTER COLUMN "procedure_id" TYPE TEXT COLLATE "C";

ALTER TABLE "ledger_evaluations" ADD CONSTRAINT "ledger_evaluations_tenant_agent_environment_procedure_id_fkey" FOREIGN KEY ("tenant", "agent", "environment", "procedure_id") REFERENCES "ledger_procedures"("tenant", "agent", "environment", "procedure_id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "ledger_decisions" ADD CONSTRAINT "ledger_decisions_tenant_agent_environment_procedure_id_fkey" FOREIGN KEY ("tenant", "agent", "environment", "procedure_id") REFERENCES "ledger_procedures"("tenant", "agent", "environment", "procedure_id") ON DELETE RESTRICT ON UPDATE CASCADE;
