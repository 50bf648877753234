// Runs recorded by the agent wait in a buffer and go to the batch endpoint
// (POST /agents/{agent_id}/workflows/batch) when `batchSize` are waiting, when the oldest has
// waited `flushIntervalMs`, or on flush(). One batch request is in flight at a time, so runs
// are sent in the order they were recorded.
import { ProctorError } from "./errors.js";
import type { BatchItemResult, Run } from "./types.js";

/** The console's answer for one recorded run. */
export type RunResult = BatchItemResult & { agent_id: string; workflow_id: string };
/** A batch request that failed as a whole (after its retries): its runs were not stored. */
export type FailedBatch = { agentId: string; runs: Run[]; error: ProctorError };
/** What happened to the runs sent since the previous flush. */
export type FlushReport = { results: RunResult[]; failed: FailedBatch[] };

export type RunBufferOptions = {
  batchSize: number;
  flushIntervalMs: number;
  onError?: (error: ProctorError, runs: Run[]) => void;
};

type Batch = { agentId: string; runs: Run[] };
export type PostBatch = (agentId: string, runs: Run[]) => Promise<BatchItemResult[]>;

/** Runs grouped by agent (recording order kept within each), in batches of at most `size`. */
export function batchesOf(pending: { agentId: string; run: Run }[], size: number): Batch[] {
  const byAgent = new Map<string, Run[]>();
  for (const { agentId, run } of pending) {
    if (!byAgent.has(agentId)) byAgent.set(agentId, []);
    byAgent.get(agentId)!.push(run);
  }
  return [...byAgent].flatMap(([agentId, runs]) =>
    Array.from({ length: Math.ceil(runs.length / size) }, (_, i) => ({ agentId, runs: runs.slice(i * size, (i + 1) * size) })),
  );
}

export class RunBuffer {
  private pending: { agentId: string; run: Run }[] = [];
  private sending: Promise<void> = Promise.resolve();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private report: FlushReport = { results: [], failed: [] };

  constructor(
    private readonly post: PostBatch,
    private readonly options: RunBufferOptions,
  ) {}

  add(agentId: string, run: Run): void {
    this.pending.push({ agentId, run });
    if (this.pending.length >= this.options.batchSize) void this.drain();
    else if (this.timer === null && this.options.flushIntervalMs > 0) {
      this.timer = setTimeout(() => void this.drain(), this.options.flushIntervalMs);
      // A waiting run does not keep the process alive: shutdown() sends it.
      this.timer.unref?.();
    }
  }

  /** Sends everything waiting and waits for every batch in flight; reports since the last flush. */
  async flush(): Promise<FlushReport> {
    await this.drain();
    const report = this.report;
    this.report = { results: [], failed: [] };
    return report;
  }

  private drain(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    for (const batch of batchesOf(this.pending.splice(0), this.options.batchSize)) {
      this.sending = this.sending.then(() => this.deliver(batch));
    }
    return this.sending;
  }

  private async deliver({ agentId, runs }: Batch): Promise<void> {
    try {
      for (const item of await this.post(agentId, runs)) {
        this.report.results.push({ ...item, agent_id: agentId, workflow_id: item.workflow_id ?? runs[item.index].workflow_id! });
      }
    } catch (e) {
      const error = e instanceof ProctorError ? e : new ProctorError(null, null, e);
      this.report.failed.push({ agentId, runs, error });
      // Outside the chain: a throwing handler must not stop the batches after this one.
      const onError = this.options.onError;
      if (onError) queueMicrotask(() => onError(error, runs));
    }
  }
}
