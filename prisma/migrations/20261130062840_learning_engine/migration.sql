-- AlterTable
ALTER TABLE "agents" ADD COLUMN     "runs_since_cycle" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "skills_version" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "skills" ADD COLUMN     "review_flags" TEXT[];

-- CreateTable
CREATE TABLE "skill_events" (
    "id" BIGSERIAL NOT NULL,
    "skill_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "reason" TEXT,
    "actor" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "skill_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "skill_events_skill_id_at_idx" ON "skill_events"("skill_id", "at");

-- CreateIndex
CREATE INDEX "skill_events_agent_id_at_idx" ON "skill_events"("agent_id", "at");

-- Hand-written (Prisma's schema language cannot express partial indexes): at most one live
-- (candidate, shadow or active) skill per trajectory class, whatever races the cycle loses.
CREATE UNIQUE INDEX "skills_one_live_per_class" ON "skills"("agent_id", "user_scope", "source_canonical_hash")
  WHERE "status" IN ('CANDIDATE', 'SHADOW', 'ACTIVE');
