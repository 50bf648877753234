// The deletion job's payload: what was asked and how far it got. Each run of the job works for a
// bounded time and hands its progress to the next one (so other agents' jobs are not held up).
export type DeletionPayload = {
  include_ledger: boolean;
  /** Rows deleted so far, by table. */
  rows: Record<string, number>;
  batches: number;
  /** The longest batch (one statement, its own transaction), in milliseconds. */
  longest_batch_ms: number;
};

export const initialProgress = (includeLedger: boolean): DeletionPayload => ({ include_ledger: includeLedger, rows: {}, batches: 0, longest_batch_ms: 0 });

export function parseProgress(payload: unknown): DeletionPayload {
  const p = (payload ?? {}) as Partial<DeletionPayload>;
  return {
    include_ledger: p.include_ledger === true,
    rows: p.rows && typeof p.rows === "object" ? { ...p.rows } : {},
    batches: typeof p.batches === "number" ? p.batches : 0,
    longest_batch_ms: typeof p.longest_batch_ms === "number" ? p.longest_batch_ms : 0,
  };
}
