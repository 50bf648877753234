// Batch ingestion is CPU work on the web process's one thread (parsing, canonical identities,
// embeddings, row JSON: about 100 ms per 1,000 runs). Sixteen batches at once queued every other
// request, /api/health included, behind seconds of it (docs/benchmarks.md#hostile). So a process
// stores at most STORE_TURNS batches at a time (the others wait their turn, holding nothing), and
// each walks its runs in slices (lib/slices.ts).
import pLimit from "p-limit";

/** Batches stored at once per process: one computes while another waits for the database. */
export const STORE_TURNS = 2;

const turns = pLimit(STORE_TURNS);

/** Runs `work` in one of the process's batch-ingestion turns. */
export const inStoreTurn = <T>(work: () => Promise<T>): Promise<T> => turns(work);
