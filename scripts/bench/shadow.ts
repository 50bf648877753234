// `npm run bench:shadow`: passive shadow evaluation on PostgreSQL (a fresh database). 1,000
// SHADOW skills in one agent and scope; ingestion throughput over HTTP with shadow evaluation
// off and on, interleaved in the same run (the outbox insert is all ingestion pays; target
// ratio ≥ 0.85); then evaluations per second with 1 and with 2 worker processes
// (scripts/worker.ts) draining the queued jobs. Ingestion's server CPU per run is printed beside
// the framework's floor (./measure.ts) and held to the single-run target (≤ 2× the floor's).
// Prints the server's and workers' peak RSS. Needs a production build (PROCTOR_DIST_DIR selects it).
//
// Knobs (environment): BENCH_RUNS (3000 per mode and round; 500 with --quick), BENCH_ROUNDS (2),
// BENCH_CONCURRENCY (8), BENCH_SKILLS (1000; 200 with --quick).
import { spawn } from "node:child_process";
import path from "node:path";
import pg from "pg";
import { ADMIN_KEY, startTestServer, waitFor, type TestServer } from "../../tests/helpers/server.ts";
import { TEST_FORGET_KEY } from "../../tests/helpers/forget-key.ts";
import { applicabilityVectors } from "../../lib/learning/inject/applicability.ts";
import { offlineEmbedder } from "../../lib/learning/inject/embedder.ts";
import { describePhase, floorPhase, FLOOR_ENV, httpClient, largestDescendant, measured, mib, QUICK, sampleRss, Verdicts, type Phase } from "./measure.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? (QUICK ? 500 : 3000));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const SKILLS = Number(process.env.BENCH_SKILLS ?? (QUICK ? 200 : 1000));
const TARGET_RATIO = 0.85;
const VERBS = ["refund", "cancel", "track", "upgrade", "reschedule", "invoice", "unlock", "transfer", "verify", "archive"];
const NOUNS = ["order", "subscription", "shipment", "account", "booking", "payment", "device", "ticket", "warranty", "license",
  "parcel", "invoice", "plan", "reservation", "card", "voucher", "return", "claim", "membership", "delivery"];
const TOOLS = [{ name: "lookup", description: "Find the record" }, { name: "act", description: "Do the thing" }];
const ON = "bench-shadow-on";
const OFF = "bench-shadow-off";
const root = path.resolve(import.meta.dirname, "../..");

const server = await startTestServer({ kind: "postgres", env: { PROCTOR_WORKER: "0", PROCTOR_LLM_BASE_URL: "", PROCTOR_LLM_API_KEY: "", ...FLOOR_ENV } });
const db = new pg.Pool({ connectionString: server.databaseUrl, max: 2 });
try {
  await main(server);
} finally {
  await db.end();
  await server.stop();
}

async function main(server: TestServer) {
  const learning = { require_shadow: true, promotion_every_n_runs: 0, shadow_evaluation_queue_size: 1_000_000 };
  await send(server, "PUT", `/api/v1/agents/${ON}`, { name: "Shadow on", tools: TOOLS, learning: { ...learning, shadow_evaluation_enabled: true } });
  await send(server, "PUT", `/api/v1/agents/${OFF}`, { name: "Shadow off", tools: TOOLS, learning: { ...learning, shadow_evaluation_enabled: false } });
  // The runs' trajectory class (one skill expects it; the others are other classes).
  const probe = await send(server, "POST", `/api/v1/agents/${OFF}/workflows`, run(0));
  const hash = (probe as { canonical_hash: string }).canonical_hash;
  console.log(`inserting ${SKILLS} SHADOW skills…`);
  await insertSkills(hash);

  const pid = largestDescendant(server.pid);
  const rss = sampleRss(pid);
  // Warm-up of both paths (JIT, connection pool, plan cache).
  await ingest(server, OFF, 300, 1);
  await ingest(server, ON, 300, 1);
  const floorHttp = httpClient(server.baseUrl, CONCURRENCY);
  const floor = await floorPhase(floorHttp, server.pid, Array.from({ length: RUNS }, (_, i) => JSON.stringify(run(i))), CONCURRENCY);
  floorHttp.close();
  const phases: Record<string, Phase[]> = { [OFF]: [], [ON]: [] };
  let seq = 1000;
  for (let r = 0; r < ROUNDS; r++) {
    for (const agent of r % 2 === 0 ? [OFF, ON] : [ON, OFF]) phases[agent].push(await ingest(server, agent, RUNS, (seq += RUNS)));
  }
  const rates = Object.fromEntries(Object.entries(phases).map(([agent, ps]) => [agent, ps.map((p) => p.perSecond)]));
  const peakServerKb = rss.stop();
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const off = mean(rates[OFF]);
  const on = mean(rates[ON]);
  const { rows: q } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM jobs WHERE kind = 'shadow_evaluation' AND status = 'PENDING'");
  const { rows: dropped } = await db.query<{ n: number }>(`SELECT shadow_dropped AS n FROM agents WHERE id = '${ON}'`);
  console.log(`\ningestion (single-run POSTs, ${CONCURRENCY} concurrent, ${ROUNDS} interleaved rounds of ${RUNS} runs per mode)`);
  console.log(`  shadow off: ${off.toFixed(0)} runs/s   (${rates[OFF].map((x) => x.toFixed(0)).join(", ")})`);
  console.log(`  shadow on:  ${on.toFixed(0)} runs/s   (${rates[ON].map((x) => x.toFixed(0)).join(", ")})`);
  console.log(`  ${describePhase("floor (run-sized bodies)", floor)}`);
  for (const agent of [OFF, ON]) console.log(`  ${describePhase(agent, phases[agent].at(-1)!, "runs")}`);
  console.log(`  jobs queued: ${q[0].n}, dropped: ${dropped[0].n}`);
  const verdicts = new Verdicts();
  verdicts.check(`ingestion rate, shadow on / off ≥ ${TARGET_RATIO}`, on / off >= TARGET_RATIO, (on / off).toFixed(3));
  verdicts.cpuVsFloor("single-run ingestion, shadow on", phases[ON].at(-1)!, floor);

  const total = q[0].n;
  const half = Math.floor(total / 2);
  // 1 worker takes the first half of the queue; 2 workers then drain what is left.
  const one = await evaluate(server, 1, half);
  const two = await evaluate(server, 2, total);
  const { rows: recs } = await db.query<{ n: number; runs: number }>(
    "SELECT count(*)::int AS n, count(DISTINCT workflow_run_id)::int AS runs FROM shadow_evaluations",
  );
  const { rows: dups } = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM (SELECT 1 FROM shadow_evaluations GROUP BY workflow_run_id, skill_id HAVING count(*) > 1) d",
  );
  console.log(`\nshadow evaluation (${SKILLS} SHADOW skills in one scope, up to 3 candidates per run)`);
  console.log(`  1 worker:  ${one.jobsPerSec.toFixed(0)} jobs/s, ${one.recordsPerSec.toFixed(0)} evaluation records/s (${one.jobs} jobs)`);
  console.log(`  2 workers: ${two.jobsPerSec.toFixed(0)} jobs/s, ${two.recordsPerSec.toFixed(0)} evaluation records/s (${two.jobs} jobs)`);
  console.log(`  records: ${recs[0].n} over ${recs[0].runs} runs; duplicate (run, skill) records: ${dups[0].n}`);
  console.log(`\nworker peak RSS: ${mib(Math.max(one.peakKb, two.peakKb))}`);
  verdicts.peakRss(peakServerKb);
  process.exitCode = verdicts.failed ? 1 : 0;
  console.log(`load average: ${(await import("node:os")).loadavg().map((x) => x.toFixed(2)).join(" ")}`);
}

function run(i: number) {
  const verb = VERBS[i % VERBS.length];
  const noun = NOUNS[Math.floor(i / VERBS.length) % NOUNS.length];
  return {
    workflow_id: `bench-${i}`,
    query: `${verb} ${noun} R${i}`,
    steps: [
      { tool: "lookup", arguments: { id: `R${i}` }, result: { found: true } },
      { tool: "act", arguments: { id: `R${i}`, verb }, result: { ok: true } },
    ],
    outcome: i % 5 === 0 ? "failure" : "success",
  };
}

async function send(server: TestServer, method: string, p: string, body?: unknown): Promise<unknown> {
  const r = await fetch(server.baseUrl + p, {
    method,
    headers: { authorization: `Bearer ${ADMIN_KEY}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await r.text();
  if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${text.slice(0, 200)}`);
  return JSON.parse(text);
}

/** Posts `n` runs one per request, CONCURRENCY at a time, measured (rate, server CPU per run). */
async function ingest(server: TestServer, agent: string, n: number, from: number): Promise<Phase> {
  let next = 0;
  return measured(server.pid, n, () =>
    Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < n) {
          const i = from + next++;
          await send(server, "POST", `/api/v1/agents/${agent}/workflows`, { ...run(i), workflow_id: `${agent}-${i}` });
        }
      }),
    ),
  );
}

async function insertSkills(hash: string) {
  const docs = await Promise.all(
    Array.from({ length: SKILLS }, async (_, c) => {
      const verb = VERBS[c % VERBS.length];
      const noun = NOUNS[Math.floor(c / VERBS.length) % NOUNS.length];
      const fields = {
        name: `${verb}-${noun}-${c}`,
        description: `Use when a customer asks to ${verb} a ${noun}.`,
        preconditions: [`The request names the ${noun}`],
        queries: [`${verb} ${noun} N1`, `please ${verb} my ${noun} N7`],
      };
      const v = await applicabilityVectors(offlineEmbedder, fields);
      return {
        id: `bss${c}`,
        ...fields,
        // One live skill per class: skill 0 expects the runs' class, the others their own.
        hash: c === 0 ? hash : (c + 1).toString(16).padStart(64, "0"),
        embedding: `{${v.embedding.join(",")}}`,
        embedder_id: v.embedderId,
        query_embeddings: JSON.stringify(v.queryEmbeddings),
      };
    }),
  );
  await db.query(
    `INSERT INTO skills (id, agent_id, user_scope, user_id, name, description, preconditions, tools, queries, content, status, version,
                         injection_role, source_canonical_hash, source_workflow_ids, baseline, recent_outcomes, embedding, embedder_id,
                         query_embeddings, review_flags, created_at, updated_at)
     SELECT d->>'id', $2, '', NULL, d->>'name', d->>'description',
            ARRAY(SELECT jsonb_array_elements_text(d->'preconditions')), ARRAY['lookup', 'act'],
            ARRAY(SELECT jsonb_array_elements_text(d->'queries')), '# skill', 'SHADOW', 1, 'USER', d->>'hash', '{}',
            '{"executions": 100, "success_rate": 0.9}', '{}', (d->>'embedding')::real[], d->>'embedder_id',
            (d->>'query_embeddings')::jsonb, '{}', now() - interval '1 day', now()
     FROM jsonb_array_elements($1::jsonb) AS d`,
    [JSON.stringify(docs), ON],
  );
  await db.query("UPDATE agents SET skills_version = skills_version + 1 WHERE id = $1", [ON]);
}

/** Starts `workers` worker processes and measures them until `doneTarget` jobs are done in all (from their first finished one). */
async function evaluate(server: TestServer, workers: number, doneTarget: number) {
  const count = async () => {
    const { rows } = await db.query<{ jobs: number; recs: number }>(
      "SELECT (SELECT count(*)::int FROM jobs WHERE kind = 'shadow_evaluation' AND status = 'DONE') AS jobs, (SELECT count(*)::int FROM shadow_evaluations) AS recs",
    );
    return rows[0];
  };
  const base = await count();
  const procs = Array.from({ length: workers }, () =>
    spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts/worker.ts")], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: server.databaseUrl, PROCTOR_FORGET_KEY: TEST_FORGET_KEY },
      stdio: ["ignore", "ignore", "inherit"],
    }),
  );
  const samplers = procs.map((p) => sampleRss(p.pid!));
  // Timing starts at the first finished job: process start-up (tsx, imports) is not evaluation.
  let start = base;
  await waitFor(async () => (start = await count()).jobs > base.jobs, 120_000);
  const t0 = performance.now();
  let end = start;
  await waitFor(async () => (end = await count()).jobs >= doneTarget, 1_800_000);
  const seconds = (performance.now() - t0) / 1000;
  await Promise.all(procs.map((p) => new Promise((r) => (p.kill("SIGTERM"), p.once("exit", r)))));
  const peakKb = Math.max(...samplers.map((s) => s.stop()), 0);
  return { jobs: end.jobs - start.jobs, jobsPerSec: (end.jobs - start.jobs) / seconds, recordsPerSec: (end.recs - start.recs) / seconds, peakKb };
}
