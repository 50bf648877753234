-- CreateTable
CREATE TABLE "login_failures" (
    "id" BIGSERIAL NOT NULL,
    "account" TEXT NOT NULL,
    "client_hash" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "login_failures_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "login_failures_account_client_hash_at_idx" ON "login_failures"("account", "client_hash", "at");

-- CreateIndex
CREATE INDEX "login_failures_at_idx" ON "login_failures"("at");
