// `npm run bench:ledger`: the evidence ledger on a fresh PostgreSQL database through the real
// server's HTTP API, next to a ceiling measured in the same run on the same database (plain
// single-row INSERT + UPDATE transactions through `pg`, no HTTP, no ledger logic):
//   1. evaluations/s with 8 clients on one procedure, and on 8 procedures (one each);
//   2. `select` p95 with 10,000 procedures in one scope (through HTTP, and the core's query alone).
// Targets: evaluations in process (the core on this process's pool, one round trip each) ≥ 50%
// of the ceiling on 8 procedures; through HTTP, server CPU per evaluation ≤ 2× the framework's
// floor (./measure.ts: the same bodies at the same concurrency); select p95 ≤ 10 ms; server peak
// RSS < 1 GiB. Prints figures, PASS/FAIL and the server's RSS (idle, peak, after); exits non-zero
// when a target fails. HTTP rates against the ceiling are printed for reference.
// Knobs: BENCH_SECONDS (10 per measured phase; 2 with --quick), BENCH_SELECTS (1000; 200).
// Needs a production build (npm run build, or PROCTOR_DIST_DIR=<dir> with a build in it).
import { existsSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import pg from "pg";
import { createApiKey } from "../../lib/auth/api-keys.ts";
import { createPrismaClient, type Db } from "../../lib/db/prisma.ts";
import { applyEvaluation, REASON_ACTIVATED } from "../../lib/ledger/arithmetic.ts";
import { selectionKey } from "../../lib/ledger/keys.ts";
import { selectProcedure } from "../../lib/ledger/read.ts";
import { recordEvaluation } from "../../lib/ledger/record-evaluation.ts";
import { policySchema } from "../../lib/ledger/schemas.ts";
import { compareBytes } from "../../lib/ledger/text.ts";
import type { LedgerScope, ProcedureAggregates } from "../../lib/ledger/types.ts";
import { startTestServer } from "../../tests/helpers/server.ts";
import {
  cpuMsOfTree, describePhase, floorPhase, FLOOR_ENV, httpClient as floorClient, largestDescendant, memoryOf, mib, percentile as ofSorted,
  QUICK, sampleRss, sleep, Verdicts, type Phase,
} from "./measure.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? (QUICK ? 2 : 10));
const SELECTS = Number(process.env.BENCH_SELECTS ?? (QUICK ? 200 : 1000));
const CLIENTS = 8;
const PROCEDURES = 10_000;
const TARGET_RATIO = 0.5;
const TARGET_SELECT_P95_MS = 10;
const root = path.resolve(import.meta.dirname, "../..");
const DEFAULT_POLICY = policySchema.parse({ evaluator_id: "e", evaluation_contract: "c" });

const distDir = process.env.PROCTOR_DIST_DIR || ".next";
if (!existsSync(path.join(root, distDir, "BUILD_ID"))) {
  console.error(`no production build in ${distDir}: run \`npm run build\` first (or set PROCTOR_DIST_DIR)`);
  process.exit(1);
}

const percentile = (sorted: number[], p: number) => ofSorted(sorted, p / 100);

/**
 * Runs `work(worker, i)` on CLIENTS workers for SECONDS: completed operations per second and the
 * server's CPU per operation (about zero for work that does not go through the server).
 */
async function forDuration(work: (worker: number, i: number) => Promise<unknown>): Promise<Phase> {
  const cpuBefore = cpuMsOfTree(server.pid);
  const deadline = performance.now() + SECONDS * 1000;
  const started = performance.now();
  let done = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, worker) => {
      for (let i = 0; performance.now() < deadline; i++) {
        await work(worker, i);
        done++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { ops: done, seconds, perSecond: done / seconds, cpuMsPerOp: (cpuMsOfTree(server.pid) - cpuBefore) / done };
}

/** A keep-alive client that sends with the given key (one per evaluator, as separate processes would). */
function httpClient(baseUrl: string) {
  const client = floorClient(baseUrl, CLIENTS * 2);
  return (method: string, pathname: string, key: string, body?: string) => client.send(method, pathname, body, key);
}

async function ceiling(sql: pg.Pool, rows: "one" | "eight"): Promise<Phase> {
  await sql.query("CREATE TABLE IF NOT EXISTS bench_ceiling_rows (id bigserial PRIMARY KEY, counter int NOT NULL, payload text NOT NULL)");
  await sql.query("CREATE TABLE IF NOT EXISTS bench_ceiling_counters (id int PRIMARY KEY, n bigint NOT NULL)");
  await sql.query("INSERT INTO bench_ceiling_counters SELECT g, 0 FROM generate_series(0, 7) g ON CONFLICT DO NOTHING");
  const clients = await Promise.all(Array.from({ length: CLIENTS }, () => sql.connect()));
  try {
    return await forDuration(async (worker, i) => {
      const c = clients[worker];
      const counter = rows === "one" ? 0 : worker;
      await c.query("BEGIN");
      await c.query("INSERT INTO bench_ceiling_rows (counter, payload) VALUES ($1, $2)", [counter, `case-${worker}-${i}`]);
      await c.query("UPDATE bench_ceiling_counters SET n = n + 1 WHERE id = $1", [counter]);
      await c.query("COMMIT");
    });
  } finally {
    for (const c of clients) c.release();
  }
}

const server = await startTestServer({ kind: "postgres", env: FLOOR_ENV });
const send = httpClient(server.baseUrl);
const prisma: Db = createPrismaClient(server.databaseUrl, CLIENTS);
const sql = new pg.Pool({ connectionString: server.databaseUrl, max: CLIENTS });
let failed = false;
try {
  // One key per evaluator client, as separate evaluator processes would have; the agent proposes with its own.
  const keys = await Promise.all(
    Array.from({ length: CLIENTS }, (_, i) =>
      createApiKey(prisma, { name: `bench-evaluator-${i}`, scopes: ["ledger:evaluate"], evaluatorId: "bench-evaluator" }).then((k) => k.secret),
    ),
  );
  const proposer = (await createApiKey(prisma, { name: "bench-agent", scopes: ["ledger:propose"] })).secret;
  const pid = largestDescendant(server.pid);
  await sleep(2000);
  const idleKb = memoryOf(pid)?.rssKb ?? 0;
  console.log(`server pid ${pid}, idle RSS ${mib(idleKb)}; ${CLIENTS} clients, ${SECONDS} s per phase`);
  const sampler = sampleRss(pid);

  const scope: LedgerScope = { tenant: "bench", agent: "evaluator-bench", environment: `run-${Date.now()}` };
  const policy = { qualification_trials: 1_000_000, evaluator_id: "bench-evaluator", evaluation_contract: "bench-contract-v1" };
  const proposeBody = (id: string) =>
    JSON.stringify({ scope, id, task: "bench-task", baseline_revision: "bench-baseline", instructions: "Benchmark procedure.", source_refs: ["bench:training"], policy });
  for (const id of ["one", ...Array.from({ length: CLIENTS }, (_, i) => `proc-${i}`)]) {
    const r = await send("POST", "/api/v1/ledger/procedures", proposer, proposeBody(id));
    if (r.status !== 201) throw new Error(`propose ${id}: ${r.status} ${r.body.slice(0, 300)}`);
  }
  const errors: Record<string, number> = {};
  const evaluation = (caseId: string) => ({
    case_id: caseId,
    phase: "qualification" as const,
    evaluator_id: "bench-evaluator",
    evaluation_contract: "bench-contract-v1",
    evidence_ref: `bench:${caseId}`,
    baseline_utility: 0.25,
    candidate_utility: 0.75,
    candidate_cost_units: 3,
    candidate_latency_ms: 40,
  });
  const evaluate = (procedure: string, key: string, caseId: string) =>
    send("POST", `/api/v1/ledger/procedures/${procedure}/evaluations`, key, JSON.stringify({ scope, ...evaluation(caseId) })).then((r) => {
      if (r.status !== 201) errors[r.status] = (errors[r.status] ?? 0) + 1;
    });
  // Warm the route and the connection pools before anything is timed.
  await Promise.all(keys.map((key, w) => Promise.all(Array.from({ length: 25 }, (_, i) => evaluate(`proc-${w}`, key, `warm-${w}-${i}`)))));

  const ceilingOne = (await ceiling(sql, "one")).perSecond;
  const ledgerOne = (await forDuration((w, i) => evaluate("one", keys[w], `one-${w}-${i}`))).perSecond;
  const ceilingEight = (await ceiling(sql, "eight")).perSecond;
  const floorBodies = Array.from({ length: QUICK ? 2000 : 10_000 }, (_, i) => JSON.stringify({ scope, ...evaluation(`floor-${i}`) }));
  const floorHttp = floorClient(server.baseUrl, CLIENTS);
  const floor = await floorPhase(floorHttp, server.pid, floorBodies, CLIENTS);
  floorHttp.close();
  const httpEight = await forDuration((w, i) => evaluate(`proc-${w}`, keys[w], `eight-${w}-${i}`));
  const ledgerEight = httpEight.perSecond;
  const evaluatedKb = memoryOf(pid)?.rssKb ?? 0;
  // The same work without HTTP (the core called in this process, on a client from createPrismaClient): how much of
  // the above is the ledger and how much the HTTP stack (whose own cost is the floor's).
  const coreOne = (await forDuration((w, i) => recordEvaluation(prisma, scope, "one", evaluation(`core-one-${w}-${i}`)))).perSecond;
  const coreEight = (await forDuration((w, i) => recordEvaluation(prisma, scope, `proc-${w}`, evaluation(`core-eight-${w}-${i}`)))).perSecond;

  // 10,000 procedures in one scope, written in bulk (proposing and qualifying each one over
  // HTTP would take minutes): half Active with bounds from the ledger's own arithmetic spread
  // over a narrow range (many equal, so the byte-order tie-break matters), half Candidates.
  const selScope: LedgerScope = { tenant: "bench", agent: "selector", environment: `run-${Date.now()}` };
  const selPolicy = { ...DEFAULT_POLICY, qualification_trials: 2, confidence_delta: 0.49, min_improvement: 0, min_candidate_utility: 0, evaluator_id: "e", evaluation_contract: "sel-contract" };
  const seedStart = performance.now();
  const seeded = Array.from({ length: PROCEDURES }, (_, k) => {
    const id = `sel-${(k * 7919) % PROCEDURES}`;
    const bytes = 100 + ((k * 37) % 1900);
    let agg: ProcedureAggregates = { state: "candidate", qualification_count: 0, mean_improvement: 0, mean_candidate_utility: 0, budget_violations: 0, lower_improvement_bound: null, monitoring_count: 0, failure_streak: 0 };
    if (k % 2 === 0) {
      const u = 0.85 + (k % 150) / 1000;
      for (const c of [0, 1]) {
        const e = { case_id: `c${c}`, phase: "qualification" as const, evaluator_id: "e", evaluation_contract: "sel-contract", evidence_ref: `r${c}`, baseline_utility: 0, candidate_utility: u, candidate_cost_units: 1, candidate_latency_ms: 1 };
        agg = applyEvaluation(agg, selPolicy, e).next;
      }
    }
    return { id, bytes, agg };
  });
  const now = new Date();
  await sql.query(
    `INSERT INTO ledger_procedures (tenant, agent, environment, procedure_id, task, baseline_revision, instructions, instruction_bytes,
       source_refs, qualification_trials, confidence_delta, min_improvement, min_candidate_utility, max_cost_units, max_latency_ms,
       max_failure_streak, evaluator_id, evaluation_contract, selection_key, state, qualification_count, mean_improvement,
       mean_candidate_utility, budget_violations, lower_improvement_bound, monitoring_count, failure_streak, created_at)
     SELECT $1, $2, $3, id, 'sel-task', 'sel-baseline', repeat('x', bytes), bytes, ARRAY['s'], 2, 0.49, 0, 0, 10000, 60000, 3, 'e',
       'sel-contract', $4, state::"LedgerState", count, mean, mean, 0, bound, 0, 0, $5
     FROM unnest($6::text[], $7::int[], $8::text[], $9::int[], $10::float8[], $11::float8[]) AS t(id, bytes, state, count, mean, bound)`,
    [
      selScope.tenant, selScope.agent, selScope.environment, Buffer.from(selectionKey("sel-task", "sel-baseline", "sel-contract")), now,
      seeded.map((x) => x.id), seeded.map((x) => x.bytes), seeded.map((x) => x.agg.state.toUpperCase()),
      seeded.map((x) => x.agg.qualification_count), seeded.map((x) => x.agg.mean_improvement), seeded.map((x) => x.agg.lower_improvement_bound),
    ],
  );
  await sql.query(
    `INSERT INTO ledger_decisions (tenant, agent, environment, procedure_id, seq, from_state, to_state, reason, triggering_case, recorded_at)
     SELECT $1, $2, $3, procedure_id, 0, 'CANDIDATE', 'ACTIVE', $4, 'c1', $5 FROM ledger_procedures
     WHERE tenant = $1 AND agent = $2 AND environment = $3 AND state = 'ACTIVE'`,
    [selScope.tenant, selScope.agent, selScope.environment, REASON_ACTIVATED, now],
  );
  await sql.query("ANALYZE ledger_procedures");
  const expected = seeded.filter((x) => x.agg.state === "active").map((x) => ({ id: x.id, bound: x.agg.lower_improvement_bound!, bytes: x.bytes }));
  console.log(`seeded ${PROCEDURES.toLocaleString("en")} procedures (${expected.length.toLocaleString("en")} active) in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

  const budgets = [300, 800, 1500, 4096];
  const selectPath = (budget: number) =>
    `/api/v1/ledger/select?tenant=bench&agent=selector&environment=${encodeURIComponent(selScope.environment)}&task=sel-task&baseline_revision=sel-baseline&evaluation_contract=sel-contract&max_instruction_bytes=${budget}`;
  for (const budget of budgets) {
    // The brute-force answer: highest bound, then the smaller id in UTF-8 byte order.
    const want = expected.filter((e) => e.bytes <= budget).sort((a, b) => b.bound - a.bound || compareBytes(a.id, b.id))[0]?.id ?? null;
    const got = JSON.parse((await send("GET", selectPath(budget), keys[0])).body).procedure?.proposal.id ?? null;
    if (got !== want) throw new Error(`select with budget ${budget} returned ${got}, brute force says ${want}`);
  }
  const httpTimes: number[] = [];
  for (let i = 0; i < SELECTS; i++) {
    const t = performance.now();
    // Spread over the clients' keys: one key's 200 requests/s limit is below a sequential select loop.
    const r = await send("GET", selectPath(budgets[i % budgets.length]), keys[i % keys.length]);
    httpTimes.push(performance.now() - t);
    if (r.status !== 200) throw new Error(`select answered ${r.status}`);
  }
  const coreTimes: number[] = [];
  for (let i = 0; i < SELECTS; i++) {
    const t = performance.now();
    await selectProcedure(prisma, selScope, { task: "sel-task", baseline_revision: "sel-baseline", evaluation_contract: "sel-contract", max_instruction_bytes: budgets[i % budgets.length] });
    coreTimes.push(performance.now() - t);
  }
  httpTimes.sort((a, b) => a - b);
  coreTimes.sort((a, b) => a - b);
  const plan = await sql.query(
    `EXPLAIN SELECT procedure_id FROM ledger_procedures WHERE tenant = $1 AND agent = $2 AND environment = $3 AND selection_key = $4
       AND state = 'ACTIVE' AND task = 'sel-task' AND instruction_bytes <= 1500 ORDER BY lower_improvement_bound DESC, procedure_id ASC LIMIT 1`,
    [selScope.tenant, selScope.agent, selScope.environment, Buffer.alloc(32)],
  );
  const peakKb = sampler.stop();
  await sleep(3000);
  const afterKb = memoryOf(pid)?.rssKb ?? 0;

  const ratioOne = ledgerOne / ceilingOne;
  const ratioEight = ledgerEight / ceilingEight;
  const coreRatio = coreEight / ceilingEight;
  const p95 = percentile(httpTimes, 95);
  console.log("\nevidence ledger on PostgreSQL (HTTP API of the real server; ceiling: plain pg INSERT+UPDATE transactions)");
  console.log(`  ${describePhase(`floor (evaluation-sized bodies, ${CLIENTS} clients)`, floor)}`);
  console.log(`  ${describePhase(`evaluations over HTTP, 8 procedures`, httpEight, "evaluations")}`);
  console.log(`  over HTTP: one procedure ${ledgerOne.toFixed(0)}/s vs ceiling ${ceilingOne.toFixed(0)} tx/s on one row = ${(ratioOne * 100).toFixed(0)}%; 8 procedures ${ledgerEight.toFixed(0)}/s vs ${ceilingEight.toFixed(0)} tx/s on 8 rows = ${(ratioEight * 100).toFixed(0)}%`);
  console.log(`  in process (the core on this process's pool, same 8 clients): one procedure ${coreOne.toFixed(0)}/s (${((coreOne / ceilingOne) * 100).toFixed(0)}%), 8 procedures ${coreEight.toFixed(0)}/s`);
  console.log(`  select core query alone: p50 ${percentile(coreTimes, 50).toFixed(2)} ms, p95 ${percentile(coreTimes, 95).toFixed(2)} ms; plan: ${plan.rows.map((r) => r["QUERY PLAN"].trim()).filter((l: string) => /Scan/.test(l)).join("; ")}`);
  console.log(`  load average ${loadavg().map((l) => l.toFixed(1)).join(" ")} on ${cpus().length} CPUs`);
  console.log(`  server RSS: idle ${mib(idleKb)}, after evaluations ${mib(evaluatedKb)}, peak ${mib(peakKb)}, after ${mib(afterKb)}`);
  const v = new Verdicts();
  v.check(`evaluations in process ≥ ${TARGET_RATIO * 100}% of the plain transaction ceiling on 8 procedures`, coreRatio >= TARGET_RATIO, `${coreEight.toFixed(0)}/s vs ${ceilingEight.toFixed(0)} tx/s = ${(coreRatio * 100).toFixed(0)}%`);
  v.cpuVsFloor("evaluations over HTTP", httpEight, floor);
  v.check(`select, ${PROCEDURES.toLocaleString("en")} procedures in one scope: HTTP p95 ≤ ${TARGET_SELECT_P95_MS} ms`, p95 <= TARGET_SELECT_P95_MS,
    `p50 ${percentile(httpTimes, 50).toFixed(2)} ms, p95 ${p95.toFixed(2)} ms, p99 ${percentile(httpTimes, 99).toFixed(2)} ms`);
  v.check("every evaluation answered 201", Object.keys(errors).length === 0, JSON.stringify(errors));
  v.peakRss(peakKb);
  failed = v.failed;
} finally {
  await sql.end();
  await prisma.$disconnect();
  await server.stop();
}
process.exitCode = failed ? 1 : 0;
