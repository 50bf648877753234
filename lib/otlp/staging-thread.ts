// Large OTLP exports are decoded and staged on a thread of their own (./staging-thread-entry.ts),
// not on the web process's main thread (./operations/receive-export.ts decides by size). The
// largest accepted export is hundreds of milliseconds of decoding, a statement of some MiB and
// the collection of their garbage; on the main thread every other request, /api/health included,
// waited behind them (`npm run bench:hostile`, docs/benchmarks.md#hostile). The main thread hands
// over the decoded bytes and gets back what staging counted. The thread's own heap limit bounds what exports may
// take, however many arrive at once: a thread that exhausts it fails the exports it held (413 for
// the oldest, 503 for the others, which exporters retry), and the next export starts a new one.
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { DomainError, TooLarge, Unavailable, type ErrorKind } from "../errors";
import type { ExportInput } from "./operations/stage-export";
import type { StageSpansResult } from "./operations/stage-spans";

export type StagingRequest = ExportInput & { id: number };
export type StagingAnswer = { id: number; staged: StageSpansResult } | { id: number; refused: { kind: ErrorKind; message: string } };

/**
 * The staging thread's old-generation heap: two of the largest accepted exports (OTLP_DECODED_BYTES
 * of JSON each) decode and stage within it (README "OpenTelemetry ingestion" gives the peaks).
 */
export const STAGING_THREAD_HEAP_MB = 256;

/**
 * How long the thread lives without an export: large exports are rare, and its heap (the largest
 * export's garbage, up to the cap) is the process's until the thread ends.
 */
const IDLE_MS = 10_000;

type Pending = { resolve: (r: StageSpansResult) => void; reject: (e: Error) => void };

export class StagingThread {
  #thread: Worker | null = null;
  readonly #pending = new Map<number, Pending>();
  #next = 0;
  #idle: NodeJS.Timeout | null = null;

  constructor(private readonly heapMb = STAGING_THREAD_HEAP_MB) {}

  /**
   * Stages an export; rejects with the decoder's refusal (Validation, TooLarge).
   * `bytes` move to the thread (unusable here afterwards) when they are the whole of their buffer.
   */
  stage(input: ExportInput): Promise<StageSpansResult> {
    const id = ++this.#next;
    const { bytes } = input;
    const whole = bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      if (this.#idle) clearTimeout(this.#idle);
      const thread = (this.#thread ??= this.#start());
      thread.ref();
      thread.postMessage({ id, ...input } satisfies StagingRequest, whole ? [bytes.buffer as ArrayBuffer] : []);
    });
  }

  /** Ends the thread (the next export starts another); exports it still held fail with 503. */
  async close() {
    const thread = this.#thread;
    if (!thread) return;
    this.#fail(thread, null);
    await thread.terminate();
  }

  #start(): Worker {
    // The thread loads the TypeScript sources as the server does (npm start imports tsx), from
    // the checkout: PROCTOR_ROOT (scripts/start.ts sets it), else the working directory.
    const root = process.env.PROCTOR_ROOT ?? process.cwd();
    const tsx = createRequire(path.join(root, "package.json")).resolve("tsx");
    const thread = new Worker(pathToFileURL(path.join(root, "lib/otlp/staging-thread-entry.ts")), {
      execArgv: ["--import", pathToFileURL(tsx).href],
      resourceLimits: { maxOldGenerationSizeMb: this.heapMb },
    });
    thread.on("message", (a: StagingAnswer) => {
      const p = this.#pending.get(a.id);
      this.#pending.delete(a.id);
      if (this.#pending.size === 0) {
        thread.unref();
        this.#idle = setTimeout(() => this.#pending.size === 0 && void this.close(), IDLE_MS).unref();
      }
      if (!p) return;
      if ("staged" in a) p.resolve(a.staged);
      else p.reject(new DomainError(a.refused.kind, a.refused.message));
    });
    thread.on("error", (e) => this.#fail(thread, e));
    thread.on("exit", () => this.#fail(thread, null));
    return thread;
  }

  /** The thread is gone: the exports it held fail, the oldest (the one it was on) as too large when its heap ran out. */
  #fail(thread: Worker, e: Error | null) {
    if (this.#thread !== thread) return;
    this.#thread = null;
    if (this.#idle) clearTimeout(this.#idle);
    const outOfMemory = (e as { code?: string } | null)?.code === "ERR_WORKER_OUT_OF_MEMORY";
    if (e && !outOfMemory) console.error(`otlp: the staging thread failed: ${e.name}`);
    [...this.#pending.values()].forEach((p, i) =>
      p.reject(
        i === 0 && outOfMemory
          ? new TooLarge(`The export needs more memory to decode than an export may (${this.heapMb} MiB); send fewer or smaller spans per export.`)
          : new Unavailable("The OTLP staging thread restarted; send the export again."),
      ),
    );
    this.#pending.clear();
  }
}

/** The web process's staging thread, started on the first export. */
export const stagingThread = new StagingThread();
