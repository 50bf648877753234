-- AlterTable
ALTER TABLE "workflows" ADD COLUMN     "expired_at" TIMESTAMPTZ(3),
ADD COLUMN     "forgotten_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "account_forgets" (
    "user_id" TEXT NOT NULL,
    "mark" INTEGER NOT NULL DEFAULT 1,
    "forgotten_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "account_forgets_pkey" PRIMARY KEY ("user_id")
);
