// CPU work over many items on the web process's one thread (a batch's runs, a claim's traces)
// gives the event loop back between slices, so that other requests, /api/health included, are
// answered meanwhile instead of after the whole walk (docs/benchmarks.md#hostile).

/** Items handled between two returns to the event loop by default (about 10 ms of a batch's runs). */
export const SLICE = 100;

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
