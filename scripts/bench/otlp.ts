// `npm run bench:otlp`: OTLP trace ingestion end to end on PostgreSQL (a fresh database), beside
// the batch API in the same run. GenAI traces (invoke_agent, two chats, three execute_tool spans:
// six spans each) recorded with the OpenTelemetry SDK are exported as protobuf to
// POST /api/v1/otlp/v1/traces, several traces per export, a few exports at once; the clock stops
// when every run exists (staging, the settle time, the worker's assembly, ingestion). Then the
// same runs, mapped the same way, go to POST /workflows/batch for another agent, and the clock
// stops at the last answer. Prints spans/s and runs/s of both. Needs a production build.
//
// First figures (--quick, PostgreSQL, this 2-core machine at load average ~15 from other work):
// exports staged at 765 spans/s; 68 spans/s (11 runs/s) until every run existed, beside the batch
// API's 270 runs/s for the same runs. The assembly was the bottleneck: one worker job per trace,
// each a handful of round trips run one after another.
// Assembly in batches (the worker hands up to 200 due assembly jobs to one call: one ingestion per
// agent, one conversation statement, one update of the traces), --quick, same machine at load
// average ~30, before → after in back-to-back runs: 42 → 164 spans/s ingested (7 → 27 runs/s),
// beside the batch API's 145 and 95 runs/s in the same runs (the load rose between them): from 5 %
// to 28 % of the batch API's rate. What remains is mostly the staging of the exports themselves
// (268 spans/s staged, 6.7 of the 11 s) and the settle time.
//
// Knobs (environment): BENCH_TRACES (3000; 300 with --quick), BENCH_TRACES_PER_EXPORT (50),
// BENCH_CONCURRENCY (4), BENCH_SETTLE_MS (200: the console's PROCTOR_OTLP_SETTLE_MS).
import pg from "pg";
import { ADMIN_KEY, startTestServer, waitFor } from "../../tests/helpers/server.ts";
import { protobufExport, recordAgentTrace } from "../../tests/helpers/otlp.ts";
import { decodeProtobuf } from "../../lib/otlp/decode.ts";
import { runsOfTrace } from "../../lib/otlp/map.ts";
import { QUICK } from "./measure.ts";

const TRACES = Number(process.env.BENCH_TRACES ?? (QUICK ? 300 : 3000));
const PER_EXPORT = Number(process.env.BENCH_TRACES_PER_EXPORT ?? 50);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const SETTLE_MS = process.env.BENCH_SETTLE_MS ?? "200";
const VERBS = ["refund", "cancel", "track", "upgrade", "reschedule", "invoice", "unlock", "transfer"];
const NOUNS = ["order", "subscription", "shipment", "account", "booking", "payment", "device", "ticket"];

const server = await startTestServer({ kind: "postgres", env: { PROCTOR_OTLP_SETTLE_MS: SETTLE_MS, PROCTOR_LLM_BASE_URL: "", PROCTOR_LLM_API_KEY: "" } });
const db = new pg.Pool({ connectionString: server.databaseUrl, max: 2 });
const auth = { authorization: `Bearer ${ADMIN_KEY}` };
try {
  console.log(`recording ${TRACES} traces with the OpenTelemetry SDK…`);
  const traces = Array.from({ length: TRACES }, (_, i) =>
    recordAgentTrace({
      agentId: "bench-otlp",
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
  const spanCount = traces.reduce((n, t) => n + t.length, 0);
  const exports: Buffer[] = [];
  for (let i = 0; i < traces.length; i += PER_EXPORT) exports.push(protobufExport(traces.slice(i, i + PER_EXPORT).flat()));

  // Warm-up: one export of another agent, through to its runs.
  const warm = recordAgentTrace({ agentId: "bench-warm", query: "warm up", calls: [{ tool: "lookup", args: {}, result: 1 }] });
  await otlp(protobufExport(warm));
  await waitFor(async () => (await count("bench-warm")) === 1, 60_000, server.output);

  const t0 = performance.now();
  await pool(exports, otlp);
  const accepted = performance.now() - t0;
  await waitFor(async () => (await count("bench-otlp")) === TRACES, 600_000, server.output);
  const otlpMs = performance.now() - t0;

  // The same runs through the batch API (another agent, same toolbox), batches of 500.
  const runs = exports.flatMap((e) => runsOfTrace(decodeProtobuf(e).spans).map((r) => r.workflow));
  await send("PUT", "/api/v1/agents/bench-batch", { name: "Batch", tools: [{ name: "lookup" }, { name: "act" }, { name: "notify" }] });
  const batches: unknown[][] = [];
  for (let i = 0; i < runs.length; i += 500) batches.push(runs.slice(i, i + 500));
  const t1 = performance.now();
  await pool(batches, (workflows) => send("POST", "/api/v1/agents/bench-batch/workflows/batch", { workflows }));
  const batchMs = performance.now() - t1;
  if ((await count("bench-batch")) !== TRACES) throw new Error("the batch API stored a different number of runs");

  const rate = (n: number, ms: number) => ((n * 1000) / ms).toFixed(0);
  console.log(`\nOTLP (protobuf, ${PER_EXPORT} traces per export, ${CONCURRENCY} concurrent, settle ${SETTLE_MS} ms, worker in process)`);
  console.log(`  ${TRACES} traces, ${spanCount} spans: exports answered in ${accepted.toFixed(0)} ms (${rate(spanCount, accepted)} spans/s staged)`);
  console.log(`  all runs stored after ${otlpMs.toFixed(0)} ms: ${rate(spanCount, otlpMs)} spans/s ingested, ${rate(TRACES, otlpMs)} runs/s`);
  console.log(`batch API (same runs, batches of 500, ${CONCURRENCY} concurrent)`);
  console.log(`  ${TRACES} runs in ${batchMs.toFixed(0)} ms: ${rate(TRACES, batchMs)} runs/s`);
} finally {
  await db.end();
  await server.stop();
}

async function count(agent: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM workflows WHERE agent_id = $1", [agent]);
  return rows[0].n;
}

async function otlp(body: Buffer) {
  const r = await fetch(`${server.baseUrl}/api/v1/otlp/v1/traces`, { method: "POST", headers: { ...auth, "content-type": "application/x-protobuf" }, body: new Uint8Array(body) });
  if (r.status !== 200) throw new Error(`OTLP export answered ${r.status}`);
  await r.arrayBuffer();
}

async function send(method: string, path: string, body: unknown) {
  const r = await fetch(server.baseUrl + path, { method, headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify(body) });
  if (r.status >= 300 && r.status !== 207) throw new Error(`${method} ${path} answered ${r.status}: ${await r.text()}`);
  return r.json();
}

async function pool<T>(items: T[], each: (item: T) => Promise<unknown>) {
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < items.length) await each(items[next++]);
  }));
}
