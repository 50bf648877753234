// The staging thread's entry (./staging-thread.ts starts it): decodes and stages the exports it is
// handed (./operations/stage-export.ts) through a database client of its own, and answers with
// what staging counted, or with the refusal (its kind and message).
import { setPriority } from "node:os";
import { parentPort } from "node:worker_threads";
import pLimit from "p-limit";
import { isDomainError } from "../errors";
import { createPrismaClient, type Db } from "../db/prisma";
import { stageExport } from "./operations/stage-export";
import type { StagingAnswer, StagingRequest } from "./staging-thread";

// Staging is background work beside the main thread's requests: on a busy machine the kernel runs
// this thread after them (on Linux a thread's nice value is its own; elsewhere it would be the
// whole process's, so it is left alone there).
if (process.platform === "linux") setPriority(0, 10);

/**
 * Exports decoded and staged at once: one decodes while another's statement runs; the rest wait
 * as sent (what the thread holds at once is two decoded exports at most).
 */
const IN_FLIGHT = 2;
const inFlight = pLimit(IN_FLIGHT);

let db: Db | null = null;
const database = () => (db ??= createPrismaClient(process.env.DATABASE_URL!, IN_FLIGHT));

parentPort!.on("message", (request: StagingRequest) => inFlight(() => stage(request)).then((answer) => parentPort!.postMessage(answer)));

async function stage({ id, ...input }: StagingRequest): Promise<StagingAnswer> {
  try {
    return { id, staged: await stageExport(database(), input) };
  } catch (e) {
    if (isDomainError(e)) return { id, refused: { kind: e.kind, message: e.message } };
    // The code only: a database error's message may quote the export's text.
    console.error(`otlp: staging an export failed: ${(e as { code?: string }).code ?? (e as Error).name}`);
    return { id, refused: { kind: "unavailable", message: "Staging the export failed; send it again." } };
  }
}
