// The app's Prisma clients (server-only). DATABASE_URL is set by the launcher: the
// embedded PGlite socket or a real PostgreSQL, through the same adapter either way.
import "server-only";
import { cache } from "react";
import { createPrismaClient, type Db } from "./prisma";
import { replicaOrPrimary } from "./read-your-writes";

export type { Db, Tx } from "./prisma";

const globalForPrisma = globalThis as unknown as { proctorPrisma?: Db; proctorReadPrisma?: Db };
const poolSize = () => Number(process.env.PROCTOR_DB_POOL ?? 10);

/** The primary: every write, operation, sign-in, the agent API and whatever must read its own writes. */
export function db(): Db {
  if (globalForPrisma.proctorPrisma) return globalForPrisma.proctorPrisma;
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set (start the console with `npm start`)");
  return (globalForPrisma.proctorPrisma = createPrismaClient(url, poolSize()));
}

/**
 * The console pages' loaders read here: a read replica when DATABASE_READ_URL names one (so
 * dashboards do not load the primary; they may lag it by the replication delay), else the
 * primary. A session that changed something reads the primary until the replica has replayed
 * it (./read-your-writes.ts). Nothing written goes through it: a hot standby refuses writes.
 * Asked once per request (the frame and the page share the answer).
 */
export const readDb = cache(async (): Promise<Db> => {
  const url = process.env.DATABASE_READ_URL;
  if (!url) return db();
  return replicaOrPrimary((globalForPrisma.proctorReadPrisma ??= createPrismaClient(url, poolSize())), db());
});
