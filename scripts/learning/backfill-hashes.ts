// `npm run learning:backfill-hashes [-- --dry-run]`: gives every stored run the trajectory
// identity of the current rule version (runs without one, or with an older version) and
// rebuilds the statistics of the classes involved. Uses DATABASE_URL.
import { createPrismaClient } from "../../lib/db/prisma.ts";
import { backfillHashes } from "../../lib/learning/capture/backfill.ts";
import { CANONICAL_VERSION } from "../../lib/learning/capture/canonical.ts";

const dryRun = process.argv.includes("--dry-run");
const url = process.env.DATABASE_URL;
if (!url) {
  console.error("DATABASE_URL is not set");
  process.exit(2);
}
const db = createPrismaClient(url, 2);
try {
  const r = await backfillHashes(db, { dryRun, log: (line) => console.log(line) });
  console.log(
    `${dryRun ? "dry run: " : ""}${r.examined} runs ${dryRun ? "would be" : "were"} rehashed to rule version ${CANONICAL_VERSION}; ` +
      `${r.hashChanged} changed class; ${r.classesRebuilt} class statistics ${dryRun ? "would be" : "were"} rebuilt.`,
  );
} finally {
  await db.$disconnect();
}
