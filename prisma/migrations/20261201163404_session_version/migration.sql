-- AlterTable
ALTER TABLE "users" ADD COLUMN     "session_version" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "login_failures_client_hash_at_idx" ON "login_failures"("client_hash", "at");
