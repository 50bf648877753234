// Batch ingestion is CPU work on the web process's one thread (parsing, canonical identities,
// embeddings, row JSON: about 100 ms per 1,000 runs). Sixteen batches at once queued every other
// request, /api/health included, behind seconds of it (docs/benchmarks.md#hostile). So a process
// stores at most STORE_TURNS batches at a time (the others wait their turn, holding nothing), and
// each walks its runs in slices, giving the event loop back between slices.
import pLimit from "p-limit";

/** Batches stored at once per process: one computes while another waits for the database. */
export const STORE_TURNS = 2;
/** Items handled between two returns to the event loop (about 10 ms of a batch's work). */
export const SLICE = 100;

const turns = pLimit(STORE_TURNS);

/** Runs `work` in one of the process's batch-ingestion turns. */
export const inStoreTurn = <T>(work: () => Promise<T>): Promise<T> => turns(work);

const nextTurnOfLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** `items.map(fn)`, giving the event loop back after every `size` items (never before the first). */
export async function mapInSlices<T, U>(items: readonly T[], fn: (item: T, index: number) => U, size = SLICE): Promise<U[]> {
  const out: U[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    if (i > 0 && i % size === 0) await nextTurnOfLoop();
    out[i] = fn(items[i], i);
  }
  return out;
}
