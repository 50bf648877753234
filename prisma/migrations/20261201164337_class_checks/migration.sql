-- AlterTable
ALTER TABLE "agents" ADD COLUMN     "checked_gates" JSONB;

-- AlterTable
ALTER TABLE "trajectory_classes" ADD COLUMN     "checked_executions" INTEGER;

-- Hand-written (Prisma's schema language has no partial indexes): the classes a promotion
-- cycle must evaluate again because their statistics changed since it last judged them (or it
-- never did, or found them eligible). Ingestion moves `executions` and so enters a row here;
-- only a cycle's mark takes it out, so the index holds about the classes touched since then.
CREATE INDEX "trajectory_classes_unchecked_idx" ON "trajectory_classes" ("agent_id")
  WHERE "checked_executions" IS DISTINCT FROM "executions";
