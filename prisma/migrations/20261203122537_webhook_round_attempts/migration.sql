-- A delivery counts every request it made (attempts); a redelivery's round its own (round_attempts).
ALTER TABLE "webhook_deliveries" ADD COLUMN "round_attempts" INTEGER NOT NULL DEFAULT 0;
UPDATE "webhook_deliveries" SET "round_attempts" = "attempts", "attempts" = GREATEST("attempts", jsonb_array_length("attempt_log"));
