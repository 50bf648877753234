-- AlterTable
ALTER TABLE "agents" ADD COLUMN     "deleting_at" TIMESTAMPTZ(3);
