-- Persona statuses become enums like every other model's (SCREAMING_CASE labels). Existing rows
-- are converted in place (upper-cased text cast to the enum), so no history, proposal or review
-- is lost; the (user_id, status) index is rebuilt by the type change. An account that was never
-- reviewed had review_state 'not_reviewed'; it is now NULL.

-- CreateEnum
CREATE TYPE "PersonaReviewStatus" AS ENUM ('REVIEWING', 'PROPOSED', 'NO_CHANGE', 'FAILED', 'APPROVED', 'DISMISSED', 'SUPERSEDED', 'CANCELLED');

-- CreateEnum
CREATE TYPE "PersonaReviewTrigger" AS ENUM ('MANUAL', 'DAILY');

-- CreateEnum
CREATE TYPE "PersonaProposalStatus" AS ENUM ('PENDING', 'APPROVED', 'DISMISSED', 'SUPERSEDED');

-- CreateEnum
CREATE TYPE "PersonaChangeAction" AS ENUM ('APPLIED', 'UNDO');

-- AlterTable
ALTER TABLE "account_personas" ALTER COLUMN "review_state" DROP DEFAULT,
ALTER COLUMN "review_state" DROP NOT NULL,
ALTER COLUMN "review_state" TYPE "PersonaReviewStatus" USING NULLIF(upper("review_state"), 'NOT_REVIEWED')::"PersonaReviewStatus";

-- AlterTable
ALTER TABLE "persona_history" ALTER COLUMN "action" TYPE "PersonaChangeAction" USING upper("action")::"PersonaChangeAction";

-- AlterTable
ALTER TABLE "persona_proposals" ALTER COLUMN "status" TYPE "PersonaProposalStatus" USING upper("status")::"PersonaProposalStatus";

-- AlterTable
ALTER TABLE "persona_reviews" ALTER COLUMN "status" TYPE "PersonaReviewStatus" USING upper("status")::"PersonaReviewStatus",
ALTER COLUMN "trigger" TYPE "PersonaReviewTrigger" USING upper("trigger")::"PersonaReviewTrigger";
