// `npm run bench:otlp`: OTLP trace ingestion end to end on PostgreSQL, beside the batch API.
// GenAI traces (invoke_agent, two chats, three execute_tool spans: six spans each) recorded with
// the OpenTelemetry SDK are exported as protobuf to POST /api/v1/otlp/v1/traces, several traces
// per export, a few exports at once; the clock stops when every run exists (staging, the settle
// time, the worker's assembly, ingestion). The same runs, mapped the same way, go to
// POST /workflows/batch for other agents, in requests of an export's runs and in batches of 500,
// and those clocks stop at the last answer. Prints spans/s and runs/s of each, the server's CPU
// per export beside the framework's floor (./measure.ts: no-op POSTs of the exports' sizes), the
// server's CPU per run end to end beside the batch API's at both request sizes, and PASS/FAIL for
// completeness, OTLP's CPU per run against the batch API's in batches of 500 (at most 2×, issue
// 27's target: OTLP carries about five times the bytes per run and adds decoding, staging, the
// settle, the mapping and the worker's claims to the same ingestion) and the peak RSS. The floor,
// each batch API phase and OTLP run on a fresh server and database, after a warm-up as long as
// the phase (one round, for the batch API) under another agent.
// Needs a production build; exits non-zero when a target fails.
//
// The worker assembles settled traces in batches (up to 500 due assembly jobs per call: one
// ingestion per agent, one conversation statement, one update of the traces), so the end-to-end
// rate is mostly the staging of the exports themselves and the settle time. Figures, a CPU
// profile and their history: docs/benchmarks.md#otlp.
//
// Knobs (environment): BENCH_TRACES (3000; 300 with --quick), BENCH_TRACES_PER_EXPORT (50),
// BENCH_CONCURRENCY (4), BENCH_SETTLE_MS (200: the console's PROCTOR_OTLP_SETTLE_MS), BENCH_WARM
// (1: the warm-up's traces as a fraction of the phase's), BENCH_BATCH_ROUNDS (3).
import pg from "pg";
import { ADMIN_KEY, startTestServer, waitFor, type TestServer } from "../../tests/helpers/server.ts";
import { postExport, protobufExport, recordAgentTrace } from "../../tests/helpers/otlp.ts";
import { decodeProtobuf } from "../../lib/otlp/decode.ts";
import { runsOfTrace } from "../../lib/otlp/map.ts";
import { chunk, cpuMsByThread, cpuMsOfTree, ensureBuild, floorPhase, FLOOR_ENV, httpClient, largestDescendant, measured, perThread, pool, QUICK, sampleRss, Verdicts } from "./measure.ts";

const TRACES = Number(process.env.BENCH_TRACES ?? (QUICK ? 300 : 3000));
const PER_EXPORT = Number(process.env.BENCH_TRACES_PER_EXPORT ?? 50);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const SETTLE_MS = process.env.BENCH_SETTLE_MS ?? "200";
/** The warm-up's traces, as a fraction of the phase's: on a fresh server a tenth left the shared ingestion cold (both figures a third higher). */
const WARM = Number(process.env.BENCH_WARM ?? 1);
const VERBS = ["refund", "cancel", "track", "upgrade", "reschedule", "invoice", "unlock", "transfer"];
const NOUNS = ["order", "subscription", "shipment", "account", "booking", "payment", "device", "ticket"];
/** The server's CPU per run end to end, at most this many times the batch API's for the same runs in its large batches (issue 27). */
const CPU_VS_BATCH = 2;
const LARGE_BATCH = 500;
/** The batch API's phases post the runs this many times (one pass is too little CPU to read well). */
const BATCH_ROUNDS = Number(process.env.BENCH_BATCH_ROUNDS ?? 3);
ensureBuild();
const auth = { authorization: `Bearer ${ADMIN_KEY}` };

console.log(`recording ${TRACES} traces with the OpenTelemetry SDK…`);
const traces = agentTraces("bench-otlp", TRACES);
const spanCount = traces.reduce((n, t) => n + t.length, 0);
const exports = exportsOf(traces);
// Each phase warms up on as many traces again (their runs, for the batch API) under another agent.
const warmTraces = agentTraces("bench-warm", Math.ceil(TRACES * WARM));
const warmExports = exportsOf(warmTraces);
const runsOf = (bodies: Buffer[]) => bodies.flatMap((e) => runsOfTrace(decodeProtobuf(e).spans).map((r) => r.workflow));

// Each phase on a server of its own: in one process, a phase paid for the garbage of the phase
// before it (an old-generation collection it brought due, its worker's leftovers), so the
// figures depended on the phases' order (docs/benchmarks.md#otlp).

// The floor: no-op POSTs of the exports' sizes, at the same concurrency.
const floor = await onServer(async ({ server }) => {
  const client = httpClient(server.baseUrl, CONCURRENCY);
  return floorPhase(client, server.pid, exports.map((e) => floorBody(e.length)), CONCURRENCY).finally(() => client.close());
});

// The same runs, mapped the same way, through the batch API (agents with the same toolbox): in
// requests of an export's runs, and in batches of 500.
const matched = await batchPhase(PER_EXPORT);
const batch = await batchPhase(LARGE_BATCH);

// OTLP: the exports, until every run is stored.
const otlp = await onServer(async ({ server, web, count }) => {
  const exportAll = (bodies: Buffer[]) => pool(bodies, CONCURRENCY, (body) => postOtlp(server, body));
  await exportAll(warmExports);
  await waitFor(async () => (await count("bench-warm")) === warmTraces.length, 600_000, server.output);
  const threads = cpuMsByThread(web);
  const cpu0 = cpuMsOfTree(server.pid);
  const t0 = performance.now();
  await exportAll(exports);
  const acceptedMs = performance.now() - t0;
  const stagingCpuPerExport = (cpuMsOfTree(server.pid) - cpu0) / exports.length;
  await waitFor(async () => (await count("bench-otlp")) === TRACES, 600_000, server.output);
  return {
    acceptedMs,
    stagingCpuPerExport,
    ms: performance.now() - t0,
    cpuMsPerRun: (cpuMsOfTree(server.pid) - cpu0) / TRACES,
    threads: perThread(threads, cpuMsByThread(web), TRACES),
    stored: await count("bench-otlp"),
  };
});

const rate = (n: number, ms: number) => ((n * 1000) / ms).toFixed(0);
const perRun = (ms: number) => `${ms.toFixed(3)} ms per run`;
console.log(`\nOTLP (protobuf, ${PER_EXPORT} traces per export, ${CONCURRENCY} concurrent, settle ${SETTLE_MS} ms, worker in process)`);
console.log(`  ${TRACES} traces, ${spanCount} spans: exports answered in ${otlp.acceptedMs.toFixed(0)} ms (${rate(spanCount, otlp.acceptedMs)} spans/s staged)`);
console.log(`  all runs stored after ${otlp.ms.toFixed(0)} ms: ${rate(spanCount, otlp.ms)} spans/s ingested, ${rate(TRACES, otlp.ms)} runs/s`);
for (const [name, p] of [[`requests of ${PER_EXPORT} runs, as the exports hold them`, matched], [`batches of ${LARGE_BATCH}`, batch]] as const) {
  console.log(`batch API (same runs, ${name}, ${CONCURRENCY} concurrent, ${BATCH_ROUNDS} rounds)`);
  console.log(`  ${p.ops} runs in ${(p.seconds * 1000).toFixed(0)} ms: ${p.perSecond.toFixed(0)} runs/s`);
}
console.log("server CPU");
console.log(`  floor (no-op POSTs of the exports' sizes): ${floor.cpuMsPerOp.toFixed(2)} ms per request`);
console.log(`  OTLP exports until the last answer (assembly already running beside them): ${otlp.stagingCpuPerExport.toFixed(2)} ms per export of ${PER_EXPORT} traces`);
console.log(`  OTLP exports: ${(otlp.stagingCpuPerExport / floor.cpuMsPerOp).toFixed(2)}× the floor's`);
console.log(`  per run and thread of the web process (ms), OTLP: ${otlp.threads}; batch API in requests of ${PER_EXPORT}: ${matched.threads}; in batches of ${LARGE_BATCH}: ${batch.threads}`);
// Beside the target: the same comparison with the batch API paying a request per export's runs,
// as OTLP does (what the request size alone costs the batch API: docs/benchmarks.md#otlp).
console.log(`  OTLP ${perRun(otlp.cpuMsPerRun)} = ${(otlp.cpuMsPerRun / matched.cpuMsPerOp).toFixed(2)}× the batch API's in requests of ${PER_EXPORT} runs (${perRun(matched.cpuMsPerOp)}), ${(matched.cpuMsPerOp / batch.cpuMsPerOp).toFixed(2)}× its batches of ${LARGE_BATCH}`);
const v = new Verdicts();
v.check("every run stored, through OTLP and through the batch API", otlp.stored === TRACES && matched.stored === TRACES && batch.stored === TRACES,
  `${otlp.stored}, ${matched.stored} and ${batch.stored} of ${TRACES}`);
const ratio = otlp.cpuMsPerRun / batch.cpuMsPerOp;
v.check(`CPU per run end to end ≤ ${CPU_VS_BATCH.toFixed(1)}× the batch API's in batches of ${LARGE_BATCH}`, ratio <= CPU_VS_BATCH,
  `${otlp.cpuMsPerRun.toFixed(3)} ms vs the batch API's ${batch.cpuMsPerOp.toFixed(3)} ms per run = ${ratio.toFixed(2)}×`);
v.peakRss(Math.max(floor.peakKb, matched.peakKb, batch.peakKb, otlp.peakKb));
process.exitCode = v.failed ? 1 : 0;

type BenchServer = { server: TestServer; web: number; count: (agent: string) => Promise<number> };

/** Runs a phase on a fresh server (and database); its result with the server's peak RSS meanwhile. */
async function onServer<T>(phase: (s: BenchServer) => Promise<T>): Promise<T & { peakKb: number }> {
  const server = await startTestServer({
    kind: "postgres",
    env: { ...FLOOR_ENV, PROCTOR_OTLP_SETTLE_MS: SETTLE_MS, PROCTOR_LLM_BASE_URL: "", PROCTOR_LLM_API_KEY: "" },
  });
  const web = largestDescendant(server.pid);
  const rss = sampleRss(web);
  const db = new pg.Pool({ connectionString: server.databaseUrl, max: 2 });
  const count = async (agent: string) =>
    (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM workflows WHERE agent_id = $1", [agent])).rows[0].n;
  try {
    const result = await phase({ server, web, count });
    return { ...result, peakKb: rss.stop() };
  } finally {
    await db.end();
    await server.stop();
  }
}

/**
 * The batch API on a fresh server: the warm-up's runs, then the runs BATCH_ROUNDS times under as
 * many agents (one pass is a few hundred milliseconds of CPU, near the 10-ms clock ticks it is read in).
 */
function batchPhase(size: number) {
  return onServer(async ({ server, web, count }) => {
    const tools = [{ name: "lookup" }, { name: "act" }, { name: "notify" }];
    const agents = Array.from({ length: BATCH_ROUNDS }, (_, i) => `bench-batch-${i}`);
    for (const agent of [...agents, "bench-warm"]) await send(server, "PUT", `/api/v1/agents/${agent}`, { name: agent, tools });
    const post = (agent: string) => async (workflows: unknown[]) => void (await send(server, "POST", `/api/v1/agents/${agent}/workflows/batch`, { workflows }));
    await pool(chunk(runsOf(warmExports), size), CONCURRENCY, post("bench-warm"));
    const batches = chunk(runsOf(exports), size);
    const threads = cpuMsByThread(web);
    const phase = await measured(server.pid, TRACES * BATCH_ROUNDS, async () => {
      for (const agent of agents) await pool(batches, CONCURRENCY, post(agent));
    });
    const stored = await Promise.all(agents.map(count));
    return { ...phase, threads: perThread(threads, cpuMsByThread(web), TRACES * BATCH_ROUNDS), stored: Math.min(...stored) };
  });
}

async function postOtlp(server: TestServer, body: Buffer) {
  const r = await postExport(server.baseUrl, body, { protobuf: true });
  if (r.status !== 200) throw new Error(`OTLP export answered ${r.status}`);
  await r.arrayBuffer();
}

async function send(server: TestServer, method: string, path: string, body: unknown) {
  const r = await fetch(server.baseUrl + path, { method, headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify(body) });
  if (r.status >= 300 && r.status !== 207) throw new Error(`${method} ${path} answered ${r.status}: ${await r.text()}`);
  return r.json();
}

/** GenAI traces of one agent: invoke_agent, two chats and three tool calls each. */
function agentTraces(agentId: string, n: number) {
  return Array.from({ length: n }, (_, i) =>
    recordAgentTrace({
      agentId,
      query: `Please ${VERBS[i % VERBS.length]} my ${NOUNS[(i >> 3) % NOUNS.length]} ${i}`,
      user: `acct-${i % 50}`,
      thread: `t-${i}`,
      calls: [
        { tool: "lookup", args: { id: String(i) }, result: { status: "ok" } },
        { tool: "act", args: { id: String(i), verb: VERBS[i % VERBS.length] }, result: { done: true } },
        { tool: "notify", args: { id: String(i) }, result: "sent" },
      ],
      status: "ok",
      at: Date.UTC(2026, 10, 1) + i * 1000,
    }),
  );
}

function exportsOf(traces: ReturnType<typeof agentTraces>): Buffer[] {
  return chunk(traces, PER_EXPORT).map((t) => protobufExport(t.flat()));
}

/** A JSON object of exactly `bytes` bytes, for the floor. */
function floorBody(bytes: number): string {
  return `{"pad":"${"x".repeat(Math.max(0, bytes - 10))}"}`;
}
