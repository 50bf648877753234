// Helpers for the worker's periodic upkeep (registerPeriodicTask in ./runtime.ts): statements
// that delete or update in batches, so that none holds many row locks, and retention periods
// read from the environment.

/** Runs `step` (one batched statement; it returns the rows it touched) until a batch comes back short; the total. */
export async function inBatches(step: () => Promise<number>, batch: number): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await step();
    total += n;
    if (n < batch) return total;
  }
}

/** A retention period in whole days from 1 to 3650, or null when `v` is absent or anything else. */
export const retentionDays = (v: string | undefined): number | null => (v && /^[1-9]\d{0,3}$/.test(v) && Number(v) <= 3650 ? Number(v) : null);
