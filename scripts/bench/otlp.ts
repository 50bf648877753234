// `npm run bench:otlp`: OTLP trace ingestion end to end on PostgreSQL (a fresh database), beside
// the batch API in the same run. GenAI traces (invoke_agent, two chats, three execute_tool spans:
// six spans each) recorded with the OpenTelemetry SDK are exported as protobuf to
// POST /api/v1/otlp/v1/traces, several traces per export, a few exports at once; the clock stops
// when every run exists (staging, the settle time, the worker's assembly, ingestion). Then the
// same runs, mapped the same way, go to POST /workflows/batch for another agent, and the clock
// stops at the last answer. Prints spans/s and runs/s of both, the server's CPU per export beside
// the framework's floor (./measure.ts: no-op POSTs of the exports' sizes), and PASS/FAIL for
// completeness, the server's CPU per run end to end against the batch API's for the same runs
// (at most 2×: OTLP carries about five times the bytes per run and adds decoding, staging, the
// settle, the mapping and the worker's claims to the same ingestion) and its peak RSS. Each phase
// follows a warm-up under another agent (a tenth of the traces, then their runs in batches).
// Needs a production build; exits non-zero when a target fails.
//
// The worker assembles settled traces in batches (up to 500 due assembly jobs per call: one
// ingestion per agent, one conversation statement, one update of the traces), so the end-to-end
// rate is mostly the staging of the exports themselves and the settle time. Figures, a CPU
// profile and their history: docs/benchmarks.md#otlp.
//
// Knobs (environment): BENCH_TRACES (3000; 300 with --quick), BENCH_TRACES_PER_EXPORT (50),
// BENCH_CONCURRENCY (4), BENCH_SETTLE_MS (200: the console's PROCTOR_OTLP_SETTLE_MS).
import pg from "pg";
import { ADMIN_KEY, startTestServer, waitFor } from "../../tests/helpers/server.ts";
import { postExport, protobufExport, recordAgentTrace } from "../../tests/helpers/otlp.ts";
import { decodeProtobuf } from "../../lib/otlp/decode.ts";
import { runsOfTrace } from "../../lib/otlp/map.ts";
import { cpuMsByThread, cpuMsOfTree, ensureBuild, floorPhase, FLOOR_ENV, httpClient, largestDescendant, measured, perThread, pool, QUICK, sampleRss, Verdicts } from "./measure.ts";

const TRACES = Number(process.env.BENCH_TRACES ?? (QUICK ? 300 : 3000));
const PER_EXPORT = Number(process.env.BENCH_TRACES_PER_EXPORT ?? 50);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const SETTLE_MS = process.env.BENCH_SETTLE_MS ?? "200";
const VERBS = ["refund", "cancel", "track", "upgrade", "reschedule", "invoice", "unlock", "transfer"];
const NOUNS = ["order", "subscription", "shipment", "account", "booking", "payment", "device", "ticket"];
/** The server's CPU per run end to end, at most this many times the batch API's for the same runs. */
const CPU_VS_BATCH = 2;
ensureBuild();
const server = await startTestServer({
  kind: "postgres",
  env: { ...FLOOR_ENV, PROCTOR_OTLP_SETTLE_MS: SETTLE_MS, PROCTOR_LLM_BASE_URL: "", PROCTOR_LLM_API_KEY: "" },
});
const web = largestDescendant(server.pid);
const rss = sampleRss(web);
const db = new pg.Pool({ connectionString: server.databaseUrl, max: 2 });
const auth = { authorization: `Bearer ${ADMIN_KEY}` };
try {
  console.log(`recording ${TRACES} traces with the OpenTelemetry SDK…`);
  const traces = agentTraces("bench-otlp", TRACES);
  const spanCount = traces.reduce((n, t) => n + t.length, 0);
  const exports = exportsOf(traces);

  // The floor: no-op POSTs of the exports' sizes, at the same concurrency.
  const floorClient = httpClient(server.baseUrl, CONCURRENCY);
  const floor = await floorPhase(floorClient, server.pid, exports.map((e) => floorBody(e.length)), CONCURRENCY).finally(() => floorClient.close());

  // Warm-up: a tenth of the traces under another agent, through to their runs.
  const warmTraces = agentTraces("bench-warm", Math.ceil(TRACES / 10));
  const warmExports = exportsOf(warmTraces);
  await pool(warmExports, CONCURRENCY, otlp);
  await waitFor(async () => (await count("bench-warm")) === warmTraces.length, 600_000, server.output);

  const threads0 = cpuMsByThread(web);
  const cpu0 = cpuMsOfTree(server.pid);
  const t0 = performance.now();
  await pool(exports, CONCURRENCY, otlp);
  const accepted = performance.now() - t0;
  const stagingCpuPerExport = (cpuMsOfTree(server.pid) - cpu0) / exports.length;
  await waitFor(async () => (await count("bench-otlp")) === TRACES, 600_000, server.output);
  const otlpMs = performance.now() - t0;
  const otlpCpuPerRun = (cpuMsOfTree(server.pid) - cpu0) / TRACES;
  const otlpThreads = perThread(threads0, cpuMsByThread(web), TRACES);

  // The same runs through the batch API (another agent, same toolbox), batches of 500, after the warm-up's runs.
  const runs = exports.flatMap((e) => runsOfTrace(decodeProtobuf(e).spans).map((r) => r.workflow));
  const tools = [{ name: "lookup" }, { name: "act" }, { name: "notify" }];
  for (const agent of ["bench-batch", "bench-batch-warm"]) await send("PUT", `/api/v1/agents/${agent}`, { name: agent, tools });
  const batches: unknown[][] = [];
  for (let i = 0; i < runs.length; i += 500) batches.push(runs.slice(i, i + 500));
  const warmRuns = warmExports.flatMap((e) => runsOfTrace(decodeProtobuf(e).spans).map((r) => r.workflow));
  for (let i = 0; i < warmRuns.length; i += 500) await send("POST", "/api/v1/agents/bench-batch-warm/workflows/batch", { workflows: warmRuns.slice(i, i + 500) });
  const threads1 = cpuMsByThread(web);
  const batch = await measured(server.pid, TRACES, () => pool(batches, CONCURRENCY, async (workflows) => void (await send("POST", "/api/v1/agents/bench-batch/workflows/batch", { workflows }))));
  const batchMs = batch.seconds * 1000;
  const batchThreads = perThread(threads1, cpuMsByThread(web), TRACES);
  const otlpStored = await count("bench-otlp");
  const batchStored = await count("bench-batch");
  const peakKb = rss.stop();

  const rate = (n: number, ms: number) => ((n * 1000) / ms).toFixed(0);
  console.log(`\nOTLP (protobuf, ${PER_EXPORT} traces per export, ${CONCURRENCY} concurrent, settle ${SETTLE_MS} ms, worker in process)`);
  console.log(`  ${TRACES} traces, ${spanCount} spans: exports answered in ${accepted.toFixed(0)} ms (${rate(spanCount, accepted)} spans/s staged)`);
  console.log(`  all runs stored after ${otlpMs.toFixed(0)} ms: ${rate(spanCount, otlpMs)} spans/s ingested, ${rate(TRACES, otlpMs)} runs/s`);
  console.log(`batch API (same runs, batches of 500, ${CONCURRENCY} concurrent)`);
  console.log(`  ${TRACES} runs in ${batchMs.toFixed(0)} ms: ${rate(TRACES, batchMs)} runs/s`);
  console.log("server CPU");
  console.log(`  floor (no-op POSTs of the exports' sizes): ${floor.cpuMsPerOp.toFixed(2)} ms per request`);
  console.log(`  OTLP exports until the last answer (assembly already running beside them): ${stagingCpuPerExport.toFixed(2)} ms per export of ${PER_EXPORT} traces`);
  console.log(`  OTLP exports: ${(stagingCpuPerExport / floor.cpuMsPerOp).toFixed(2)}× the floor's`);
  console.log(`  per run and thread of the web process (ms), OTLP: ${otlpThreads}; batch API: ${batchThreads}`);
  const v = new Verdicts();
  v.check("every run stored, through OTLP and through the batch API", otlpStored === TRACES && batchStored === TRACES, `${otlpStored} and ${batchStored} of ${TRACES}`);
  const ratio = otlpCpuPerRun / batch.cpuMsPerOp;
  v.check(`CPU per run end to end ≤ ${CPU_VS_BATCH.toFixed(1)}× the batch API's`, ratio <= CPU_VS_BATCH,
    `${otlpCpuPerRun.toFixed(3)} ms vs the batch API's ${batch.cpuMsPerOp.toFixed(3)} ms per run = ${ratio.toFixed(2)}×`);
  v.peakRss(peakKb);
  process.exitCode = v.failed ? 1 : 0;
} finally {
  await db.end();
  await server.stop();
}

async function count(agent: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM workflows WHERE agent_id = $1", [agent]);
  return rows[0].n;
}

async function otlp(body: Buffer) {
  const r = await postExport(server.baseUrl, body, { protobuf: true });
  if (r.status !== 200) throw new Error(`OTLP export answered ${r.status}`);
  await r.arrayBuffer();
}

async function send(method: string, path: string, body: unknown) {
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
  const out: Buffer[] = [];
  for (let i = 0; i < traces.length; i += PER_EXPORT) out.push(protobufExport(traces.slice(i, i + PER_EXPORT).flat()));
  return out;
}

/** A JSON object of exactly `bytes` bytes, for the floor. */
function floorBody(bytes: number): string {
  return `{"pad":"${"x".repeat(Math.max(0, bytes - 10))}"}`;
}
