// `npm run bench:ingest`: ingestion throughput and latency through the real HTTP API, next to
// a ceiling measured in the same run (the same rows inserted straight into `workflows` with
// multi-row INSERTs through `pg`), on a fresh PostgreSQL database and then on PGlite.
// Single runs are measured beside the framework's floor (./measure.ts): the same bodies POSTed
// to the no-op route at the same concurrency. Each phase starts after a warm-up of its route under
// another agent (10,000 runs in batches, 200 single runs), as the floor's does: the figures are
// the steady state's, not the route's first load and compilation. A batch phase is only 40
// requests, so its request path warms slowly: with a few warm-up batches V8 is still compiling
// (optimizing, on its helper threads) during the measured batches, which inflates the batch CPU
// per run by about a third (docs/benchmarks.md#ingest); hence 20 warm-up batches.
// A script, not a test: it prints figures, the server's CPU per request or run, the targets and
// PASS/FAIL per target, and exits non-zero when a PostgreSQL target fails.
//
// The server runs without its in-process worker (PROCTOR_WORKER=0, as web processes do when
// workers run apart), so the figures are the request path's own: the promotion cycles that
// ingestion queues at the cadence mark are measured by bench:learning. BENCH_WORKER=inline keeps
// the worker in the server, whose cycles are then counted per request (at the default cadence of
// 25 they more than double the server CPU per run).
//
// Knobs (environment): BENCH_RUNS (20000; 2000 with --quick), BENCH_SINGLE_RUNS (same),
// BENCH_BATCH_SIZE (500), BENCH_BATCH_CONCURRENCY (1), BENCH_CONCURRENCY (16),
// BENCH_DATABASES ("postgres,pglite"), BENCH_WORKER ("separate" or "inline").
import pg from "pg";
import { startTestServer, type TestDatabase, type TestServer } from "../../tests/helpers/server.ts";
import { newCase, prng, TOOL_CALLS, TOOL_NAMES, type Step } from "../demo/payloads.ts";
import {
  chunk, describePhase, ensureBuild, floorPhase, FLOOR_ENV, httpClient, largestDescendant, measured, memoryOf, mib, percentile, pool, QUICK,
  sampleRss, sleep, Verdicts, type HttpClient, type Phase,
} from "./measure.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? (QUICK ? 2_000 : 20_000));
const SINGLE_RUNS = Number(process.env.BENCH_SINGLE_RUNS ?? RUNS);
const BATCH = Number(process.env.BENCH_BATCH_SIZE ?? 500);
const BATCH_CONCURRENCY = Number(process.env.BENCH_BATCH_CONCURRENCY ?? 1);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const DATABASES = (process.env.BENCH_DATABASES ?? "postgres,pglite").split(",") as TestDatabase[];
const INLINE_WORKER = process.env.BENCH_WORKER === "inline";
const STEPS = 5;
const TARGETS = { batchOfCeiling: 0.4, batchCpuMsPerRun: 0.15, singleCpuOfFloor: 2, singleRateOfFloor: 0.45 };
const AGENT = "bench";
const CEILING_AGENT = "bench-ceiling";
/** Takes the warm-up runs: each phase measures the route once loaded and compiled, as the floor does. */
const WARMUP_AGENT = "bench-warmup";
const WARMUP_RUNS = Math.min(10_000, RUNS);

type Figures = {
  kind: TestDatabase;
  batch: Phase;
  ceilingRate: number;
  floor: Phase;
  single: Phase;
  p50: number;
  p99: number;
  rss: { idleKb: number; peakKb: number; hwmKb: number; afterKb: number };
  failures: number;
};


async function benchmark(kind: TestDatabase): Promise<Figures> {
  console.log(`\n=== ${kind === "postgres" ? "PostgreSQL" : "PGlite (embedded)"}, worker ${INLINE_WORKER ? "in the server" : "apart (PROCTOR_WORKER=0)"} ===`);
  const server = await startTestServer({ kind, env: { ...FLOOR_ENV, ...(INLINE_WORKER ? {} : { PROCTOR_WORKER: "0" }) } });
  try {
    await withClient(server.baseUrl, async (client) => {
      for (const id of [AGENT, CEILING_AGENT, WARMUP_AGENT]) {
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
    const warmupBodies = chunk(generateRuns("wb", WARMUP_RUNS, 3), BATCH).map((workflows) => JSON.stringify({ workflows }));
    const batchSampler = sampleRss(pid);
    const batch = await withClient(server.baseUrl, async (client) => {
      await pool(warmupBodies, BATCH_CONCURRENCY, async (body) => void (await failures.guard(() => client.send("POST", `/api/v1/agents/${WARMUP_AGENT}/workflows/batch`, body))));
      return measured(server.pid, RUNS, () =>
        pool(batchBodies, BATCH_CONCURRENCY, async (body) => {
          const r = await failures.guard(() => client.send("POST", `/api/v1/agents/${AGENT}/workflows/batch`, body));
          if (r && r.status !== 207) failures.add(`batch answered ${r.status}: ${r.body.slice(0, 200)}`);
          const items = r?.status === 207 ? (JSON.parse(r.body).results as { status: number; error?: unknown }[]) : [];
          for (const item of items.filter((x) => x.status !== 201)) failures.add(`batch item ${item.status}: ${JSON.stringify(item.error)}`);
        }),
      );
    });
    const batchPeakKb = batchSampler.stop();
    console.log(describePhase(`batch (${BATCH_CONCURRENCY === 1 ? "sequential" : `${BATCH_CONCURRENCY} concurrent`} batches of ${BATCH})`, batch, "runs"));

    const ceilingRate = await ceiling(server);
    console.log(`ceiling:  the same ${RUNS} rows as multi-row INSERTs of ${BATCH} through pg: ${ceilingRate.toFixed(0)} runs/s`);

    const singleBodies = generateRuns("s", SINGLE_RUNS, 2).map((run) => JSON.stringify(run));
    const latencies: number[] = [];
    const singleSampler = sampleRss(pid);
    const singleWarmup = generateRuns("ws", Math.min(200, SINGLE_RUNS), 4).map((run) => JSON.stringify(run));
    const [floor, single] = await withClient(server.baseUrl, async (client) => {
      const floor = await floorPhase(client, server.pid, singleBodies, CONCURRENCY);
      await pool(singleWarmup, CONCURRENCY, async (body) => void (await failures.guard(() => client.send("POST", `/api/v1/agents/${WARMUP_AGENT}/workflows`, body))));
      const single = await measured(server.pid, SINGLE_RUNS, () =>
        pool(singleBodies, CONCURRENCY, async (body) => {
          const started = process.hrtime.bigint();
          const r = await failures.guard(() => client.send("POST", `/api/v1/agents/${AGENT}/workflows`, body));
          latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
          if (r && r.status !== 201) failures.add(`single run answered ${r.status}: ${r.body.slice(0, 200)}`);
        }),
      );
      return [floor, single] as const;
    });
    const singlePeakKb = singleSampler.stop();
    latencies.sort((a, b) => a - b);
    const p50 = percentile(latencies, 0.5);
    const p99 = percentile(latencies, 0.99);
    console.log(describePhase(`floor (the same bodies, concurrency ${CONCURRENCY})`, floor));
    console.log(`${describePhase(`single runs (concurrency ${CONCURRENCY})`, single)}, p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`);

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
    return { kind, batch, ceilingRate, floor, single, p50, p99, rss, failures: failures.count };
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
async function withClient<T>(baseUrl: string, phase: (client: HttpClient) => Promise<T>): Promise<T> {
  const client = httpClient(baseUrl, Math.max(CONCURRENCY, BATCH_CONCURRENCY));
  try {
    return await phase(client);
  } finally {
    client.close();
  }
}

async function timed(fn: () => Promise<void>) {
  const started = process.hrtime.bigint();
  await fn();
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

/** Prints the comparison and targets; returns whether a PostgreSQL target failed. */
function report(figures: Figures[]): boolean {
  console.log(`\n=== summary: ${RUNS} batch runs + ${SINGLE_RUNS} single runs of ${STEPS} steps per database ===`);
  let failed = false;
  for (const f of figures) {
    const ofCeiling = f.batch.perSecond / f.ceilingRate;
    const ofFloor = f.single.perSecond / f.floor.perSecond;
    console.log(`\n${f.kind}:`);
    console.log(`  batch ${f.batch.perSecond.toFixed(0)} runs/s, ${f.batch.cpuMsPerOp.toFixed(3)} ms server CPU per run | ceiling ${f.ceilingRate.toFixed(0)} runs/s`);
    console.log(`  single ${f.single.perSecond.toFixed(0)} runs/s, ${f.single.cpuMsPerOp.toFixed(3)} ms CPU | floor ${f.floor.perSecond.toFixed(0)} requests/s, ${f.floor.cpuMsPerOp.toFixed(3)} ms CPU | p50 ${f.p50.toFixed(1)} ms | p99 ${f.p99.toFixed(1)} ms`);
    console.log(`  server RSS idle ${mib(f.rss.idleKb)} | peak ${mib(f.rss.peakKb)} (VmHWM ${mib(f.rss.hwmKb)}) | after ${mib(f.rss.afterKb)}`);
    const v = new Verdicts();
    v.check(`batch ingestion ≥ ${TARGETS.batchOfCeiling * 100}% of the raw multi-row INSERT ceiling`, ofCeiling >= TARGETS.batchOfCeiling, `${(ofCeiling * 100).toFixed(0)}%`);
    v.check(`batch ingestion server CPU ≤ ${TARGETS.batchCpuMsPerRun} ms per run`, f.batch.cpuMsPerOp <= TARGETS.batchCpuMsPerRun, `${f.batch.cpuMsPerOp.toFixed(3)} ms`);
    v.cpuVsFloor("single-run ingestion", f.single, f.floor, TARGETS.singleCpuOfFloor);
    v.check(`single-run ingestion ≥ ${TARGETS.singleRateOfFloor * 100}% of the floor's requests/s`, ofFloor >= TARGETS.singleRateOfFloor, `${(ofFloor * 100).toFixed(0)}%`);
    v.check("every request succeeded and every run was stored", f.failures === 0, `${f.failures} failures`);
    v.peakRss(Math.max(f.rss.peakKb, f.rss.hwmKb));
    if (v.failed && f.kind === "postgres") failed = true;
  }
  if (figures.some((f) => f.kind === "pglite")) console.log("\n(PGlite figures are for reference; the exit code follows the PostgreSQL targets.)");
  return failed;
}

// Last, so every declaration above is initialised before it runs.
ensureBuild();
const all: Figures[] = [];
for (const kind of DATABASES) all.push(await benchmark(kind));
process.exitCode = report(all) ? 1 : 0;
