-- Hand-written (a partial index Prisma's schema cannot express): the inbox counts and lists
-- webhook deliveries that failed every attempt on every console page; delivered rows, the
-- many, stay out of it.
CREATE INDEX "webhook_deliveries_failed_idx" ON "webhook_deliveries" ("last_attempt_at" DESC) WHERE "status" = 'FAILED';
