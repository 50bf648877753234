// Builds a Prisma client on the pg adapter. The app's singleton (client.ts) and the
// launcher, worker, scripts and tests all get their clients here.
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client";

export type Db = PrismaClient;
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

export function createPrismaClient(connectionString: string, poolMax = 10): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString, max: poolMax }) });
}
