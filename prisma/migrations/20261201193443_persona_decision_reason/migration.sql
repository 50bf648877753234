-- AlterTable
ALTER TABLE "persona_history" ADD COLUMN     "decision_reason" TEXT;

-- AlterTable
ALTER TABLE "persona_proposals" ADD COLUMN     "decision_reason" TEXT;
