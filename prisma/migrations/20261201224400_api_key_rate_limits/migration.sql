-- CreateTable
-- UNLOGGED: rate limit state is written on every agent request and needs no crash safety (a
-- crash empties the table, which only forgives a burst); no WAL is written for it.
CREATE UNLOGGED TABLE "api_key_rate_limits" (
    "api_key_id" TEXT NOT NULL,
    "tat" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "api_key_rate_limits_pkey" PRIMARY KEY ("api_key_id")
);

-- AddForeignKey
ALTER TABLE "api_key_rate_limits" ADD CONSTRAINT "api_key_rate_limits_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;
