-- Run counters move off the agent row (a hot row under concurrent ingestion) into per-slot rows.

-- CreateTable
CREATE TABLE "agent_run_counters" (
    "agent_id" TEXT NOT NULL,
    "slot" SMALLINT NOT NULL,
    "runs" INTEGER NOT NULL DEFAULT 0,
    "last_run_at" TIMESTAMPTZ(3),

    CONSTRAINT "agent_run_counters_pkey" PRIMARY KEY ("agent_id","slot")
);

-- AddForeignKey
ALTER TABLE "agent_run_counters" ADD CONSTRAINT "agent_run_counters_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Backfill: the existing totals become slot 0; the cadence mark keeps the runs since the last cycle.
INSERT INTO "agent_run_counters" ("agent_id", "slot", "runs", "last_run_at")
SELECT "id", 0, "run_count", "last_run_at" FROM "agents" WHERE "run_count" > 0 OR "last_run_at" IS NOT NULL;

ALTER TABLE "agents" ADD COLUMN "cycle_mark" INTEGER NOT NULL DEFAULT 0;
UPDATE "agents" SET "cycle_mark" = "run_count" - "runs_since_cycle";

-- AlterTable
ALTER TABLE "agents" DROP COLUMN "last_run_at",
DROP COLUMN "run_count",
DROP COLUMN "runs_since_cycle";
