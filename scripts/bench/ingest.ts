// `npm run bench:ingest`: ingestion throughput and latency through the real HTTP API, next to
// a ceiling measured in the same run (the same rows inserted straight into `workflows` with
// multi-row INSERTs through `pg`), on a fresh PostgreSQL database and then on PGlite.
// A script, not a test: it prints figures, the targets and PASS/FAIL per target, and exits
// non-zero when a PostgreSQL target fails.
//
// Knobs (environment): BENCH_RUNS (20000), BENCH_SINGLE_RUNS (20000), BENCH_BATCH_SIZE (500),
// BENCH_BATCH_CONCURRENCY (1), BENCH_CONCURRENCY (16), BENCH_DATABASES ("postgres,pglite").
import { existsSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { spawnSync } from "node:child_process";
import pg from "pg";
import { ADMIN_KEY, startTestServer, type TestDatabase, type TestServer } from "../../tests/helpers/server.ts";
import { newCase, prng, TOOL_CALLS, TOOL_NAMES, type Rng, type Step } from "../demo/payloads.ts";
import { largestDescendant, memoryOf, mib, sampleRss } from "./proc.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 20_000);
const SINGLE_RUNS = Number(process.env.BENCH_SINGLE_RUNS ?? 20_000);
const BATCH = Number(process.env.BENCH_BATCH_SIZE ?? 500);
const BATCH_CONCURRENCY = Number(process.env.BENCH_BATCH_CONCURRENCY ?? 1);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const DATABASES = (process.env.BENCH_DATABASES ?? "postgres,pglite").split(",") as TestDatabase[];
const STEPS = 5;
const TARGET_RATIO = 0.4;
const TARGET_P99_MS = 25;
const RSS_LIMIT_KB = 1024 * 1024;
const AGENT = "bench";
const CEILING_AGENT = "bench-ceiling";

const root = path.resolve(import.meta.dirname, "../..");

type Figures = {
  kind: TestDatabase;
  batchRate: number;
  ceilingRate: number;
  singleRate: number;
  p50: number;
  p99: number;
  rss: { idleKb: number; peakKb: number; hwmKb: number; afterKb: number };
  failures: number;
};


function ensureBuild() {
  const distDir = process.env.PROCTOR_DIST_DIR || ".next";
  if (existsSync(path.join(root, distDir, "BUILD_ID"))) return;
  console.log(`no production build in ${distDir}; building first…`);
  const r = spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, DATABASE_URL: "", NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (r.status !== 0) throw new Error("next build failed");
}

async function benchmark(kind: TestDatabase): Promise<Figures> {
  console.log(`\n=== ${kind === "postgres" ? "PostgreSQL" : "PGlite (embedded)"} ===`);
  const server = await startTestServer({ kind });
  try {
    await withClient(server.baseUrl, async (client) => {
      for (const id of [AGENT, CEILING_AGENT]) {
        const r = await client.send("PUT", `/api/v1/agents/${id}`, JSON.stringify({ name: `Benchmark ${id}`, tools: toolbox() }));
        if (r.status !== 200) throw new Error(`creating agent ${id}: ${r.status} ${r.body.slice(0, 300)}`);
      }
    });
    const pid = largestDescendant(server.pid);
    await sleep(2000);
    const idleKb = memoryOf(pid)?.rssKb ?? 0;
    console.log(`server pid ${pid}, idle RSS ${mib(idleKb)}`);
    const failures = new Failures();

    const batchBodies = chunk(generateRuns("b", RUNS, 1), BATCH).map((workflows) => JSON.stringify({ workflows }));
    const batchSampler = sampleRss(pid);
    const batch = await withClient(server.baseUrl, (client) =>
      timed(() =>
        pool(batchBodies, BATCH_CONCURRENCY, async (body) => {
          const r = await failures.guard(() => client.send("POST", `/api/v1/agents/${AGENT}/workflows/batch`, body));
          if (r && r.status !== 207) failures.add(`batch answered ${r.status}: ${r.body.slice(0, 200)}`);
          const items = r?.status === 207 ? (JSON.parse(r.body).results as { status: number; error?: unknown }[]) : [];
          for (const item of items.filter((x) => x.status !== 201)) failures.add(`batch item ${item.status}: ${JSON.stringify(item.error)}`);
        }),
      ),
    );
    const batchPeakKb = batchSampler.stop();
    const batchRate = RUNS / batch.seconds;
    console.log(`batch:    ${RUNS} runs in ${BATCH_CONCURRENCY === 1 ? "sequential" : `${BATCH_CONCURRENCY} concurrent`} batches of ${BATCH}: ${batch.seconds.toFixed(1)}s, ${batchRate.toFixed(0)} runs/s`);

    const ceilingRate = await ceiling(server);
    console.log(`ceiling:  the same ${RUNS} rows as multi-row INSERTs of ${BATCH} through pg: ${ceilingRate.toFixed(0)} runs/s`);

    const singleBodies = generateRuns("s", SINGLE_RUNS, 2).map((run) => JSON.stringify(run));
    const latencies: number[] = [];
    const singleSampler = sampleRss(pid);
    const single = await withClient(server.baseUrl, (client) =>
      timed(() =>
        pool(singleBodies, CONCURRENCY, async (body) => {
          const started = process.hrtime.bigint();
          const r = await failures.guard(() => client.send("POST", `/api/v1/agents/${AGENT}/workflows`, body));
          latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
          if (r && r.status !== 201) failures.add(`single run answered ${r.status}: ${r.body.slice(0, 200)}`);
        }),
      ),
    );
    const singlePeakKb = singleSampler.stop();
    const singleRate = SINGLE_RUNS / single.seconds;
    latencies.sort((a, b) => a - b);
    const p50 = percentile(latencies, 0.5);
    const p99 = percentile(latencies, 0.99);
    console.log(`single:   ${SINGLE_RUNS} runs at concurrency ${CONCURRENCY}: ${singleRate.toFixed(0)} runs/s, p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`);

    const peakKb = Math.max(batchPeakKb, singlePeakKb);
    const stored = (await server.sql.query("SELECT count(*)::int AS n FROM workflows WHERE agent_id = $1", [AGENT])).rows[0].n as number;
    if (stored !== RUNS + SINGLE_RUNS) failures.add(`expected ${RUNS + SINGLE_RUNS} stored runs, found ${stored}`);
    failures.print();
    await sleep(5000);
    const after = memoryOf(pid) ?? { rssKb: 0, hwmKb: 0 };
    console.log(
      `server RSS: idle ${mib(idleKb)}, peak during batches ${mib(batchPeakKb)}, during single runs ${mib(singlePeakKb)} (VmHWM ${mib(after.hwmKb)}), 5 s after ${mib(after.rssKb)}`,
    );
    const rss = { idleKb, peakKb, hwmKb: after.hwmKb, afterKb: after.rssKb };
    return { kind, batchRate, ceilingRate, singleRate, p50, p99, rss, failures: failures.count };
  } finally {
    await server.stop();
  }
}

/** Failed requests are counted and reported, not thrown: one reset must not void the run. */
class Failures {
  count = 0;
  private first: string[] = [];
  add(message: string) {
    this.count++;
    if (this.first.length < 3) this.first.push(message);
  }
  async guard<T>(fn: () => Promise<T>): Promise<T | null> {
    try {
      return await fn();
    } catch (e) {
      this.add((e as Error).message);
      return null;
    }
  }
  print() {
    if (this.count) console.log(`failures: ${this.count}, first: ${this.first.join(" | ")}`);
  }
}

/**
 * The ceiling: the rows the API just stored for the batch phase, copied column for column
 * (text in, cast back to each column's type, as `pg` sends parameters anyway) under another
 * agent, in multi-row INSERTs of BATCH rows at the batch phase's concurrency.
 */
async function ceiling(server: TestServer): Promise<number> {
  const columns = (
    await server.sql.query(
      `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type FROM pg_attribute a
        WHERE a.attrelid = 'workflows'::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
    )
  ).rows as { name: string; type: string }[];
  const quoted = columns.map((c) => `"${c.name}"`);
  const source = await server.sql.query({
    text: `SELECT ${quoted.map((q) => `${q}::text`).join(", ")} FROM workflows WHERE agent_id = $1 ORDER BY received_at`,
    values: [AGENT],
    rowMode: "array",
  });
  const idIndex = columns.findIndex((c) => c.name === "id");
  const agentIndex = columns.findIndex((c) => c.name === "agent_id");
  const rows = (source.rows as (string | null)[][]).map((row) => {
    const copy = [...row];
    copy[idIndex] = `${row[idIndex]}c`;
    copy[agentIndex] = CEILING_AGENT;
    return copy;
  });
  const statements = chunk(rows, BATCH).map((group) => {
    const tuples = group.map((_, r) => `(${columns.map((c, i) => `$${r * columns.length + i + 1}::${c.type}`).join(", ")})`);
    return { text: `INSERT INTO workflows (${quoted.join(", ")}) VALUES ${tuples.join(", ")}`, values: group.flat() };
  });
  const writer = new pg.Pool({ connectionString: server.databaseUrl, max: BATCH_CONCURRENCY });
  try {
    await writer.query("SELECT 1");
    const { seconds } = await timed(() => pool(statements, BATCH_CONCURRENCY, (s) => writer.query(s).then(() => {})));
    return rows.length / seconds;
  } finally {
    await writer.end();
  }
}

/** Realistic 5-step support runs: ~40 tool paths, a few hundred bytes per result, some retries. */
function generateRuns(prefix: string, count: number, seed: number) {
  const r = prng(seed);
  const paths = Array.from({ length: 40 }, () => Array.from({ length: STEPS }, () => r.pick(TOOL_NAMES)));
  const now = Date.now();
  return Array.from({ length: count }, (_, i) => {
    const c = newCase(r);
    const tools = r.pick(paths);
    let t = now - r.int(0, 30 * 86_400) * 1000;
    const steps: Step[] = tools.map((tool, k) => {
      const call = TOOL_CALLS[tool](c, r);
      const timestamp = new Date((t += r.int(200, 3000))).toISOString();
      // About one run in twelve has a step that timed out and was given up on: another class.
      return k > 0 && r.chance(0.02)
        ? { tool, arguments: call.arguments, error: { type: "TimeoutError", message: `${tool} did not answer within 10s` }, timestamp }
        : { tool, arguments: call.arguments, result: call.result, timestamp };
    });
    const user = r.chance(0.85) ? `acct-${r.int(1, 200)}` : undefined;
    return {
      workflow_id: `${prefix}-${i}`,
      ...(user ? { user_id: user, thread_id: `t-${user}-${r.int(1, 50)}` } : {}),
      query: `${r.pick(["Please", "Can you", "I need you to", "Could you"])} ${tools[0].replace("_", " ")} for ${c.orderId} (${c.sku}, ${c.city})`,
      steps,
      execution_error: null,
      ...(r.chance(0.1) ? { outcome: "failure" } : {}),
      answer: "Done.",
      created_at: new Date(t + 500).toISOString(),
    };
  });
}

function toolbox() {
  return TOOL_NAMES.map((name) => ({ name, description: `${name} (benchmark)`, parameters: { type: "object", properties: {} } }));
}

/** A keep-alive client for one phase; sockets idle between phases would be closed by the server. */
async function withClient<T>(baseUrl: string, use: (client: ReturnType<typeof httpClient>) => Promise<T>): Promise<T> {
  const client = httpClient(baseUrl);
  try {
    return await use(client);
  } finally {
    client.close();
  }
}

function httpClient(baseUrl: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Math.max(CONCURRENCY, BATCH_CONCURRENCY) });
  const url = new URL(baseUrl);
  return {
    send(method: string, pathname: string, body: string): Promise<{ status: number; body: string }> {
      return new Promise((resolve, reject) => {
        const req = http.request(
          {
            agent,
            host: url.hostname,
            port: url.port,
            method,
            path: pathname,
            headers: { authorization: `Bearer ${ADMIN_KEY}`, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
            timeout: 120_000,
          },
          (res) => {
            const parts: Buffer[] = [];
            res.on("data", (d: Buffer) => parts.push(d));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString("utf8") }));
            res.on("error", reject);
          },
        );
        req.on("timeout", () => req.destroy(new Error(`${method} ${pathname} timed out`)));
        req.on("error", reject);
        req.end(body);
      });
    },
    close: () => agent.destroy(),
  };
}

/** Runs `work` over items with at most `limit` in flight; the first failure stops the rest. */
async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

async function timed(fn: () => Promise<void>) {
  const started = process.hrtime.bigint();
  await fn();
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

function chunk<T>(items: T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

function sleep(ms: number) {
  return new Promise((r) => setTimeout(r, ms));
}

/** Prints the comparison and targets; returns whether a PostgreSQL target failed. */
function report(figures: Figures[]): boolean {
  console.log(`\n=== summary: ${RUNS} batch runs + ${SINGLE_RUNS} single runs of ${STEPS} steps per database ===`);
  let failed = false;
  for (const f of figures) {
    const ratio = f.batchRate / f.ceilingRate;
    const checks = [
      [`batch ingestion ≥ ${TARGET_RATIO * 100}% of the ceiling`, ratio >= TARGET_RATIO, `${(ratio * 100).toFixed(0)}%`],
      [`single-run p99 ≤ ${TARGET_P99_MS} ms at concurrency ${CONCURRENCY}`, f.p99 <= TARGET_P99_MS, `${f.p99.toFixed(1)} ms`],
      ["every request succeeded and every run was stored", f.failures === 0, `${f.failures} failures`],
      ["server peak RSS < 1 GiB", f.rss.peakKb < RSS_LIMIT_KB && f.rss.hwmKb < RSS_LIMIT_KB, mib(Math.max(f.rss.peakKb, f.rss.hwmKb))],
    ] as const;
    console.log(`\n${f.kind}:`);
    console.log(`  batch ${f.batchRate.toFixed(0)} runs/s | ceiling ${f.ceilingRate.toFixed(0)} runs/s | ratio ${(ratio * 100).toFixed(0)}%`);
    console.log(`  single ${f.singleRate.toFixed(0)} runs/s | p50 ${f.p50.toFixed(1)} ms | p99 ${f.p99.toFixed(1)} ms`);
    console.log(`  server RSS idle ${mib(f.rss.idleKb)} | peak ${mib(f.rss.peakKb)} (VmHWM ${mib(f.rss.hwmKb)}) | after ${mib(f.rss.afterKb)}`);
    for (const [name, ok, value] of checks) {
      console.log(`  ${ok ? "PASS" : "FAIL"}  ${name}: ${value}`);
      if (!ok && f.kind === "postgres") failed = true;
    }
  }
  if (figures.some((f) => f.kind === "pglite")) console.log("\n(PGlite figures are for reference; the exit code follows the PostgreSQL targets.)");
  return failed;
}

// Last, so every declaration above is initialised before it runs.
ensureBuild();
const all: Figures[] = [];
for (const kind of DATABASES) all.push(await benchmark(kind));
process.exitCode = report(all) ? 1 : 0;
