import { configDefaults, defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import path from "node:path";

// Integration tests talk to the built console over HTTP (or call the domain on a real
// database), on PGlite or PostgreSQL as PROCTOR_TEST_DB says. One server serves the files that
// need no special one (tests/helpers/shared-server.ts), its database reset between files. Two
// files run side by side (PROCTOR_TEST_WORKERS), each worker with its own shared servers: most of
// a file's time is spent waiting on servers, workers and the database, not computing.

/**
 * Files whose outcome depends on the database engine (concurrency, job claiming, ingestion
 * SQL, migrations, advisory locks, ledger locking): they run on PGlite and on PostgreSQL. The
 * others run once: on PostgreSQL when the run has it (faster), else on PGlite (scripts/test.ts).
 * Job pruning (job-retention) is one batched DELETE by date: plain SQL, run once.
 */
export const ENGINE_SENSITIVE = [
  "agent-api", // ingestion SQL, concurrent identical deliveries
  "health", // every migration from an empty database
  "learning-skills", // concurrent promotion cycles (advisory lock), cadence jobs
  // Also the ledger's engine-dependent part of ledger-api (concurrent deliveries, the schema
  // version refusal), in-process: ledger-api's HTTP rules and restarts run once.
  "ledger-core", // schema versioning, concurrent deliveries in-process
  "persona-undo-pause", // multi-step undo and paused refusals under row locks and CAS
  "api-key-migration", // existing keys across the scope split
  "ledger-trust", // key scopes and bindings, evidence resolution on the workflows index
  "offline-learning", // template distillation refusals and offline retrieval with per-agent term weights, on both engines
  "shadow-durability", // the queue bound inside the ingestion statement, a dead job retried
  "review-gates", // the review-first migration, the ledger suspension demotion in the evaluation's transaction
  "request-hygiene", // poisoned JSON-text arguments reach the ingestion SQL; jsonb refuses them on both
  "outcome-migration", // a data migration's SQL judging stored runs
  "outcomes-drift", // ingestion's outcome order and the monitor's deviations
  "class-checks", // incremental promotion cycles: marks, SKIP LOCKED, the partial index
  "webhooks", // the outbox function and its triggers (plpgsql, gen_random_uuid), delivery jobs claimed with SKIP LOCKED
  "forget-retention", // forgetting under the persona row lock and watermark, retention's batched UPDATE/DELETE
  "forget-staged", // staged spans found by their jsonb user keys and deleted with their traces in one statement
  "forget-marks-migration", // the migration runner's keyed step: one multi-statement query moving the marks and dropping the plain table
  "data-lifecycle", // agent deletion: row locks against writes, batched deletes, the ingestion guard; keyset-paged exports
  "experiments", // the example experiment end to end, the ledger hand-off
  "otlp", // OTLP staging: one statement of CTEs with ON CONFLICT and FOR UPDATE, assembly jobs claimed in batches
  "otlp-conformance", // every recorded framework's exports through staging and batched assembly to their runs
  "otlp-unmapped", // refusals inside the staging statement, the counting upsert on a NULLS NOT DISTINCT key
  "sdk", // batches and idempotent resends through the ingestion SQL, context assembly
  "learning-scope", // distinct accounts kept by the ingestion statement, the class rebuild under its table lock
  "learning-scope-migration", // the data migration giving existing agents the per-account scope and their classes' distinct accounts
  "skills-io", // export/import through the validation gate, MemoRizz's class and skill writes
  "job-leases", // claims matched by attempt, leases renewed while a slow job runs, re-claims under SKIP LOCKED
  "conversation-evidence", // the ingestion guard under the agent's key-share lock, evidence locks and the sequence across sessions, the foreign key's migration
  "injected-database", // the promotion-cycle advisory lock on the passed database's pool (another session's lock on PostgreSQL)
].map((name) => `tests/integration/${name}.test.ts`);

/**
 * Files that need a PostgreSQL server: a second database on it, or several processes on one
 * database (the embedded PGlite is one process's database). Left out of every PGlite run.
 */
export const POSTGRES_ONLY = [
  "read-replica", // DATABASE_READ_URL: a streaming replica of the test cluster (pg_basebackup)
  "fleet", // two web processes and two workers on one PostgreSQL
  "proving-ground", // a tiny world of the proving ground twice: the full run is on PostgreSQL
  "forget-dump", // a pg_dump of the test database searched for a forgotten account's id
].map((name) => `tests/integration/${name}.test.ts`);

/**
 * The files measured to take longest (PostgreSQL suite, seconds: fuzz 68, access-matrix 60,
 * backup-restore 47, fleet 33, sessions 33, ledger-api 25, read-replica 23,
 * learning-llm 20, learning-skills 17 (40 on PGlite), shadow-durability 17 (31), health 14 (34)).
 * They start first: a fresh clone has no timings cached, and vitest's fallback (larger files
 * first) left some for the end, one worker running them while the other sat idle.
 * start-data-dir (27 s) keeps its later place: at the start, under the heaviest load, its server
 * once exited on SIGTERM without printing that it shut down. The suspected cause, tsx's launcher
 * relaying the signal, is gone (servers run as one process); not yet re-measured up front.
 */
const LONGEST = ["fuzz", "access-matrix", "backup-restore", "fleet", "sessions", "ledger-api", "read-replica", "learning-llm", "learning-skills", "shadow-durability", "health"];

class LongestFirst extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONGEST.findIndex((name) => f.moduleId.endsWith(`/${name}.test.ts`));
      return i === -1 ? LONGEST.length : i;
    };
    const sorted = await super.sort(files);
    return sorted.map((f, i) => ({ f, i })).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i).map(({ f }) => f);
  }
}

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
    },
  },
  test: {
    // PROCTOR_TEST_FILES=engine: only the engine-sensitive files.
    include: process.env.PROCTOR_TEST_FILES === "engine" ? ENGINE_SENSITIVE : ["tests/integration/**/*.test.ts"],
    exclude: [...configDefaults.exclude, ...(process.env.PROCTOR_TEST_DB === "postgres" ? [] : POSTGRES_ONLY)],
    environment: "node",
    fileParallelism: true,
    // A worker keeps its module graph from file to file (a fresh one per file was 70 s of imports
    // in the PostgreSQL suite). So a file changes process.env only with vi.stubEnv, put back when
    // it ends (the setup file), and module caches of database reads are per client
    // (lib/db/per-database.ts).
    isolate: false,
    setupFiles: ["tests/helpers/restore-env.ts"],
    maxWorkers: Number(process.env.PROCTOR_TEST_WORKERS || 2),
    globalSetup: ["tests/helpers/shared-server.ts"],
    sequence: { sequencer: LongestFirst },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Real servers, two suites and Chromium share 2 cores: a test that fails once and passes on
    // its retry is listed by npm test as flaky, with its first failure, never passed silently.
    retry: 1,
  },
});
