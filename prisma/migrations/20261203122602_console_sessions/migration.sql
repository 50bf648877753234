-- One row per console session (the JWT carries its id): sessions end one at a time or all at
-- once, and say why. They replace the per-user session version; sessions signed in before
-- carry no id and end with this migration (their users sign in again).
CREATE TABLE "console_sessions" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "ended_at" TIMESTAMPTZ(3),
    "end_reason" TEXT,

    CONSTRAINT "console_sessions_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "console_sessions_user_id_idx" ON "console_sessions"("user_id");

CREATE INDEX "console_sessions_expires_at_idx" ON "console_sessions"("expires_at");

ALTER TABLE "console_sessions" ADD CONSTRAINT "console_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "users" DROP COLUMN "session_version";
