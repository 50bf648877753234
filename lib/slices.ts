// CPU work over many items on the web process's one thread (a batch's runs, a claim's traces)
// gives the event loop back between slices, so that other requests, /api/health included, are
// answered meanwhile instead of after the whole walk (docs/benchmarks.md#hostile).

/** Items handled between two returns to the event loop by default (about 10 ms of a batch's runs). */
export const SLICE = 100;

const nextTurnOfLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * `items.map(fn)`, giving the event loop back once the items handled since the last return weigh
 * `size` (never before the first). Items weigh 1 unless `weigh` says otherwise (by their size,
 * where their cost grows with it).
 */
export async function mapInSlices<T, U>(items: readonly T[], fn: (item: T, index: number) => U, size = SLICE, weigh?: (item: T) => number): Promise<U[]> {
  const out: U[] = new Array(items.length);
  let weight = 0;
  for (let i = 0; i < items.length; i++) {
    if (weight >= size) {
      await nextTurnOfLoop();
      weight = 0;
    }
    out[i] = fn(items[i], i);
    weight += weigh ? weigh(items[i]) : 1;
  }
  return out;
}
