-- Forget marks keyed by the account's HMAC under PROCTOR_FORGET_KEY, a key the database does not
-- hold. SQL cannot compute that HMAC: the migration runner's keyed step (lib/accounts/forget-marks.ts)
-- moves the rows of account_forgets (plain ids) here and drops that table, in one transaction.
CREATE TABLE "account_forget_marks" (
    "account" TEXT NOT NULL,
    "mark" INTEGER NOT NULL DEFAULT 1,
    "forgotten_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "account_forget_marks_pkey" PRIMARY KEY ("account")
);
