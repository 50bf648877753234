// The app's one Prisma client (server-only). DATABASE_URL is set by the launcher: the
// embedded PGlite socket or a real PostgreSQL, through the same adapter either way.
import "server-only";
import { createPrismaClient, type Db } from "./prisma";

export type { Db, Tx } from "./prisma";

const globalForPrisma = globalThis as unknown as { proctorPrisma?: Db };

export function db(): Db {
  if (globalForPrisma.proctorPrisma) return globalForPrisma.proctorPrisma;
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set (start the console with `npm start`)");
  return (globalForPrisma.proctorPrisma = createPrismaClient(url, Number(process.env.PROCTOR_DB_POOL ?? 10)));
}
