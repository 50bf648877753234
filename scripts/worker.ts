// `npm run worker`: a background worker without the web server, for deployments that run the
// console with PROCTOR_WORKER=0 and any number of workers beside it on one PostgreSQL (jobs are
// claimed with FOR UPDATE SKIP LOCKED). Needs DATABASE_URL (the embedded database's URL is in
// <data dir>/embedded.url while `npm start` runs). SIGTERM/SIGINT finish the job in hand.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { createPrismaClient } from "../lib/db/prisma.ts";
import { startWorkerRuntime, workerOptionsFromEnv } from "../lib/jobs/runtime.ts";
import "../lib/learning/jobs.ts";
import "../lib/persona/jobs.ts";
import "../lib/webhooks/jobs.ts";
// OTLP trace assembly and the expiry of staged spans.
import "../lib/otlp/jobs.ts";

const url = process.env.DATABASE_URL;
if (!url) {
  console.error("worker: DATABASE_URL is required");
  process.exit(1);
}
// The forget key npm start generated, when the environment does not set it (lib/accounts/forget-key.ts).
const keyFile = path.resolve(process.env.PROCTOR_DATA_DIR ?? ".data", "forget-key");
if (!process.env.PROCTOR_FORGET_KEY && existsSync(keyFile)) process.env.PROCTOR_FORGET_KEY = readFileSync(keyFile, "utf8").trim();
if (!process.env.PROCTOR_FORGET_KEY) {
  console.error("worker: PROCTOR_FORGET_KEY is required (the web process's value, or its data dir in PROCTOR_DATA_DIR)");
  process.exit(1);
}
const database = createPrismaClient(url, 2);
const worker = startWorkerRuntime(database, workerOptionsFromEnv());
console.log(`worker ${process.pid} started`);

let stopping = false;
async function shutdown(why: string) {
  if (stopping) return;
  stopping = true;
  console.log(`worker ${process.pid} stopping (${why})`);
  await worker.stop();
  await database.$disconnect();
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
