// `npm run bench:learning`: the learning engine at scale on PostgreSQL. 1,000,000 workflows
// across 10,000 trajectory classes and 5 agents are bulk-loaded with INSERT … SELECT
// generate_series (with consistent write-time class statistics and distinct queries), then,
// through the real server over HTTP: p95 of the classes API (20 requests) next to the naive
// alternative (GROUP BY over the workflows table), one promotion cycle with the template
// distiller, and the context endpoint with 10,000 ACTIVE skills: p95, and the server's CPU per
// request beside the framework's floor (./measure.ts) for the same bodies. Prints the figures,
// PASS/FAIL per target and the server's RSS (idle, peak, after). Needs a production build.
//
// Knobs (environment): BENCH_WORKFLOWS (1000000; 50000 with --quick), BENCH_CLASSES (10000;
// 1000 with --quick), BENCH_AGENTS (5).
import { loadavg } from "node:os";
import pg from "pg";
import { startTestServer, type TestServer } from "../../tests/helpers/server.ts";
import { applicabilityVectors } from "../../lib/learning/inject/applicability.ts";
import { offlineEmbedder } from "../../lib/learning/inject/embedder.ts";
import { createPrismaClient } from "../../lib/db/prisma.ts";
import { listClasses } from "../../lib/learning/classes/trajectory-classes.ts";
import { agentContext } from "../../lib/learning/skills/skill-reads.ts";
import { contextBody } from "../../lib/learning/capture/schemas.ts";
import {
  describePhase, floorPhase, FLOOR_ENV, httpClient, largestDescendant, measured, memoryOf, mib, QUICK, sampleRss, sleep, Verdicts,
} from "./measure.ts";

const WORKFLOWS = Number(process.env.BENCH_WORKFLOWS ?? (QUICK ? 50_000 : 1_000_000));
const CLASSES = Number(process.env.BENCH_CLASSES ?? (QUICK ? 1_000 : 10_000));
const AGENTS = Number(process.env.BENCH_AGENTS ?? 5);
const TOOLS = 40;
const VERBS = ["refund", "cancel", "track", "upgrade", "reschedule", "invoice", "unlock", "transfer", "verify", "archive"];
const NOUNS = ["order", "subscription", "shipment", "account", "booking", "payment", "device", "ticket", "warranty", "license",
  "parcel", "invoice", "plan", "reservation", "card", "voucher", "return", "claim", "membership", "delivery"];
const TARGETS = { classesP95Ms: 150, classesRatio: 20, contextP95Ms: 20, cycleMs: 5000, contextCpuOfFloor: 2 };

const agentId = (a: number) => `bench-agent-${a}`;

const server = await startTestServer({ kind: "postgres", env: { PROCTOR_LLM_BASE_URL: "", PROCTOR_LLM_API_KEY: "", ...FLOOR_ENV } });
const db = new pg.Pool({ connectionString: server.databaseUrl, max: 4 });
// The engine called in this process, without HTTP: separates its cost from the web stack's.
const prisma = createPrismaClient(server.databaseUrl, 2);
try {
  await main(server);
} finally {
  await prisma.$disconnect();
  await db.end();
  await server.stop();
}

async function main(server: TestServer) {
  const http = httpClient(server.baseUrl, 4);
  const client = { send: (method: string, path: string, body?: unknown) => http.send(method, path, body === undefined ? undefined : JSON.stringify(body)) };
  for (let a = 0; a < AGENTS; a++) {
    const tools = Array.from({ length: TOOLS }, (_, i) => ({ name: `tool_${i}`, description: "bench tool" }));
    const r = await client.send("PUT", `/api/v1/agents/${agentId(a)}`, { name: `Bench ${a}`, tools, learning: { promotion_every_n_runs: 0, require_shadow: false, auto_activate: true } });
    if (r.status !== 200) throw new Error(`agent ${a}: ${r.status} ${r.body.slice(0, 200)}`);
  }
  const pid = largestDescendant(server.pid);
  await sleep(1500);
  const idleKb = memoryOf(pid)?.rssKb ?? 0;

  console.log(`loading ${WORKFLOWS.toLocaleString()} workflows across ${CLASSES.toLocaleString()} classes and ${AGENTS} agents…`);
  const loadMs = await timed(() => load());
  console.log(`loaded in ${(loadMs / 1000).toFixed(1)} s`);

  const sampler = sampleRss(pid);
  // Classes API: 20 requests over HTTP (first page of each agent's classes), after one warm-up each.
  for (let a = 0; a < AGENTS; a++) await client.send("GET", `/api/v1/agents/${agentId(a)}/classes?limit=50`);
  const classTimes: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t = await timed(async () => {
      const r = await client.send("GET", `/api/v1/agents/${agentId(i % AGENTS)}/classes?limit=50`);
      if (r.status !== 200) throw new Error(`classes: ${r.status} ${r.body.slice(0, 200)}`);
    });
    classTimes.push(t);
  }
  const classEngineTimes: number[] = [];
  for (let i = 0; i < 20; i++) classEngineTimes.push(await timed(() => listClasses(prisma, agentId(i % AGENTS), { limit: 50 })));
  // The naive alternative: the same first page computed by grouping the runs.
  const naiveTimes: number[] = [];
  for (let i = 0; i < 5; i++) {
    naiveTimes.push(
      await timed(() =>
        db.query(
          `SELECT user_scope, canonical_hash, count(*) AS executions, count(*) FILTER (WHERE outcome = 'SUCCESS') AS successes,
                  count(DISTINCT normalized_query) AS distinct_queries, min(created_at), max(created_at)
           FROM workflows WHERE agent_id = $1 AND canonical_hash IS NOT NULL
           GROUP BY user_scope, canonical_hash ORDER BY executions DESC, canonical_hash LIMIT 50`,
          [agentId(i % AGENTS)],
        ),
      ),
    );
  }

  // One promotion cycle with the template distiller (no LLM configured).
  let cycleReport: { promoted: string[]; candidates_considered: number; deferred: string[] } | null = null;
  const cycleMs = await timed(async () => {
    const r = await client.send("POST", `/api/v1/agents/${agentId(0)}/promotion-cycles`);
    if (r.status !== 200) throw new Error(`cycle: ${r.status} ${r.body.slice(0, 300)}`);
    cycleReport = JSON.parse(r.body);
  });

  console.log("creating ACTIVE skills for every remaining class…");
  const skillCount = await loadSkills();
  const queries = Array.from({ length: 100 }, (_, i) => ({
    agent: agentId(i % AGENTS),
    body: { query: `${VERBS[i % 10]} my ${NOUNS[(i * 7) % 20]} ${1000 + i}`, ...(i % 2 ? { user_id: `user-${(i * 13) % 101}` } : {}) },
  }));
  // Warm the per-process skill caches (one load per agent and scope), then measure.
  for (const q of queries) await client.send("POST", `/api/v1/agents/${q.agent}/context`, q.body);
  const contextTimes: number[] = [];
  let injected = 0;
  const contextRequests = [...queries, ...queries];
  const contextFloor = await floorPhase(http, server.pid, contextRequests.map((q) => JSON.stringify(q.body)), 1);
  const context = await measured(server.pid, contextRequests.length, async () => {
    for (const q of contextRequests) {
      contextTimes.push(
        await timed(async () => {
          const r = await client.send("POST", `/api/v1/agents/${q.agent}/context`, q.body);
          if (r.status !== 200) throw new Error(`context: ${r.status} ${r.body.slice(0, 200)}`);
          injected += JSON.parse(r.body).skills.length;
        }),
      );
    }
  });
  const contextEngineTimes: number[] = [];
  for (const q of queries) await agentContext(prisma, q.agent, contextBody.parse(q.body));
  for (const q of [...queries, ...queries]) contextEngineTimes.push(await timed(() => agentContext(prisma, q.agent, contextBody.parse(q.body))));
  const peakKb = sampler.stop();
  await sleep(1500);
  const afterKb = memoryOf(pid)?.rssKb ?? 0;

  const classesP95 = p95(classTimes);
  const naiveP95 = p95(naiveTimes);
  const contextP95 = p95(contextTimes);
  const ratio = naiveP95 / classesP95;
  const report = cycleReport as unknown as { promoted: string[]; candidates_considered: number; deferred: string[] };
  const rows: [string, string, boolean][] = [
    [`classes API p95 (20 requests, limit 50)`, `${classesP95.toFixed(1)} ms (target ≤ ${TARGETS.classesP95Ms} ms)`, classesP95 <= TARGETS.classesP95Ms],
    [`naive GROUP BY over workflows p95 (5 runs)`, `${naiveP95.toFixed(1)} ms; ratio ${ratio.toFixed(1)}× (target ≥ ${TARGETS.classesRatio}×)`, ratio >= TARGETS.classesRatio],
    [`promotion cycle (template distiller)`, `${cycleMs.toFixed(0)} ms, ${report.promoted.length} promoted of ${report.candidates_considered} eligible, ${report.deferred.length} deferred (target ≤ ${TARGETS.cycleMs} ms)`, cycleMs <= TARGETS.cycleMs],
    [`context p95 (${contextTimes.length} requests, ${skillCount.toLocaleString()} ACTIVE skills)`, `${contextP95.toFixed(1)} ms, ${injected} skills injected (target ≤ ${TARGETS.contextP95Ms} ms)`, contextP95 <= TARGETS.contextP95Ms],
  ];
  console.log("\n=== learning engine benchmark (PostgreSQL) ===");
  console.log(describePhase("context floor (the same bodies, one at a time)", contextFloor));
  console.log(describePhase("context", context));
  const verdicts = new Verdicts();
  for (const [name, figure, ok] of rows) verdicts.check(name, ok, figure);
  verdicts.cpuVsFloor(`context at ${skillCount.toLocaleString()} ACTIVE skills`, context, contextFloor, TARGETS.contextCpuOfFloor);
  verdicts.peakRss(peakKb);
  console.log(`medians: classes ${p50(classTimes).toFixed(1)} ms, context ${p50(contextTimes).toFixed(1)} ms`);
  console.log(`in-process engine (no HTTP) p95: classes ${p95(classEngineTimes).toFixed(1)} ms, context ${p95(contextEngineTimes).toFixed(1)} ms`);
  console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(" ")}`);
  console.log(`server RSS: idle ${mib(idleKb)}, peak ${mib(peakKb)}, after ${mib(afterKb)}`);
  process.exitCode = verdicts.failed ? 1 : 0;
}

/** Bulk load: runs, then the write-time class statistics and distinct queries derived from them. */
async function load() {
  const perClass = Math.max(1, Math.floor(WORKFLOWS / CLASSES));
  const c = await db.connect();
  try {
    await c.query("SET maintenance_work_mem = '256MB'");
    await c.query("SET synchronous_commit = off");
    // Class c: agent c % AGENTS; half the classes have no user, the rest one of 101 users;
    // success rate 100/90/80/70% by c % 4; last seen (c % 45) days ago; 20 distinct queries.
    await c.query(`
      CREATE TEMP TABLE bench_classes AS
      SELECT c, agent_id, user_scope, hash, t1, t2, verb, noun,
             jsonb_build_array(jsonb_build_object('tool', t1, 'arguments', jsonb_build_object('id', 'X'), 'result', jsonb_build_object('ok', true)),
                               jsonb_build_object('tool', t2, 'arguments', jsonb_build_object('id', 'X', 'note', 'n'), 'result', jsonb_build_object('ok', true))) AS steps,
             jsonb_build_array(jsonb_build_object('tool', t1, 'arg_keys', jsonb_build_array('id'), 'errored', false, 'retry_count', 1),
                               jsonb_build_object('tool', t2, 'arg_keys', jsonb_build_array('id', 'note'), 'errored', false, 'retry_count', 1)) AS signature
      FROM (
        SELECT c,
               'bench-agent-' || (c % ${AGENTS}) AS agent_id,
               CASE WHEN c % 2 = 0 THEN '' ELSE 'user-' || (c % 101) END AS user_scope,
               md5('class' || c) || md5('x' || c) AS hash,
               'tool_' || (c % ${TOOLS}) AS t1,
               'tool_' || ((c / ${TOOLS} + c + 1) % ${TOOLS}) AS t2,
               (ARRAY[${VERBS.map((v) => `'${v}'`).join(",")}])[1 + c % 10] AS verb,
               (ARRAY[${NOUNS.map((v) => `'${v}'`).join(",")}])[1 + (c / 10) % 20] AS noun
        FROM generate_series(0, ${CLASSES - 1}) AS c) k`);
    // Secondary indexes are rebuilt once after the insert (much cheaper than maintaining them row by row).
    const { rows: indexes } = await c.query<{ indexname: string; indexdef: string }>(
      "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'workflows' AND indexname <> 'workflows_pkey'",
    );
    for (const ix of indexes) await c.query(`DROP INDEX "${ix.indexname}"`);
    await c.query(`
      INSERT INTO workflows (id, agent_id, workflow_id, user_id, user_scope, query, normalized_query, steps, outcome, outcome_source,
                             canonical_signature, canonical_hash, canonical_version, step_count, skills_activated, embedding,
                             embedder_id, body_hash, created_at)
      SELECT 'bw' || i, k.agent_id, 'run-' || i, NULLIF(k.user_scope, ''), k.user_scope,
             initcap(k.verb) || ' ' || k.noun || ' N' || (i / ${CLASSES}) % 20,
             k.verb || ' ' || k.noun || ' n' || (i / ${CLASSES}) % 20,
             k.steps,
             CASE WHEN ((i / ${CLASSES}) * 7 + k.c) % 10 < k.c % 4 THEN 'FAILURE'::"Outcome" ELSE 'SUCCESS'::"Outcome" END,
             'REPORTED'::"OutcomeSource", k.signature, k.hash, 2, 2, '{}', '{}', 'hash-ngram-v2:512', 'b' || i,
             now() - make_interval(days => k.c % 45) - make_interval(hours => (i / ${CLASSES}))
      FROM generate_series(0, ${perClass * CLASSES - 1}) AS i
      JOIN bench_classes k ON k.c = i % ${CLASSES}`);
    for (const ix of indexes) await c.query(ix.indexdef);
    await c.query(`
      INSERT INTO trajectory_classes (agent_id, user_scope, canonical_hash, signature, tools, executions, successes, distinct_queries, first_seen, last_seen)
      SELECT k.agent_id, k.user_scope, k.hash, k.signature, ARRAY[k.t1, k.t2], s.executions, s.successes, s.distinct_queries, s.first_seen, s.last_seen
      FROM (SELECT canonical_hash, count(*) AS executions, count(*) FILTER (WHERE outcome = 'SUCCESS') AS successes,
                   count(DISTINCT normalized_query) AS distinct_queries, min(created_at) AS first_seen, max(created_at) AS last_seen
            FROM workflows WHERE id LIKE 'bw%' GROUP BY canonical_hash) s
      JOIN bench_classes k ON k.hash = s.canonical_hash`);
    await c.query(`
      INSERT INTO trajectory_class_queries (agent_id, user_scope, canonical_hash, normalized_query, first_seen)
      SELECT agent_id, user_scope, canonical_hash, normalized_query, min(created_at)
      FROM workflows WHERE id LIKE 'bw%' GROUP BY 1, 2, 3, 4`);
    await c.query(`
      INSERT INTO agent_run_counters (agent_id, slot, runs, last_run_at)
      SELECT agent_id, 0, count(*), max(created_at) FROM workflows GROUP BY 1
      ON CONFLICT (agent_id, slot) DO UPDATE SET runs = EXCLUDED.runs, last_run_at = EXCLUDED.last_run_at`);
    // As a long-running deployment would have it: vacuumed (visibility map set, so autovacuum does
    // not start on the fresh million rows in the middle of the measurements) and analyzed.
    await c.query("VACUUM ANALYZE");
  } finally {
    c.release();
  }
}

/** One ACTIVE skill per class not yet covered, with applicability vectors from the offline embedder. */
async function loadSkills(): Promise<number> {
  const { rows } = await db.query<{ c: number; agent_id: string; user_scope: string; hash: string; t1: string; t2: string; verb: string; noun: string }>(`
    SELECT row_number() OVER (ORDER BY k.canonical_hash)::int AS c, k.agent_id, k.user_scope, k.canonical_hash AS hash, k.tools[1] AS t1, k.tools[2] AS t2,
           split_part(q.normalized_query, ' ', 1) AS verb, split_part(q.normalized_query, ' ', 2) AS noun
    FROM trajectory_classes k
    JOIN LATERAL (SELECT normalized_query FROM trajectory_class_queries x
                  WHERE x.agent_id = k.agent_id AND x.user_scope = k.user_scope AND x.canonical_hash = k.canonical_hash LIMIT 1) q ON true
    WHERE k.agent_id LIKE 'bench-agent-%'
      AND NOT EXISTS (SELECT 1 FROM skills s WHERE s.agent_id = k.agent_id AND s.user_scope = k.user_scope
                        AND s.source_canonical_hash = k.canonical_hash AND s.status IN ('CANDIDATE', 'SHADOW', 'ACTIVE'))`);
  const BATCH = 250;
  for (let i = 0; i < rows.length; i += BATCH) {
    const batch = rows.slice(i, i + BATCH);
    const docs = await Promise.all(
      batch.map(async (k) => {
        const fields = {
          name: `${k.verb}-${k.noun}`,
          description: `Use when a customer asks to ${k.verb} a ${k.noun}.`,
          preconditions: [`The request names the ${k.noun}`],
          queries: [`${k.verb} ${k.noun} N1`, `please ${k.verb} my ${k.noun} N7`],
        };
        const v = await applicabilityVectors(offlineEmbedder, fields);
        return {
          id: `bsk${k.c}`,
          agent_id: k.agent_id,
          user_scope: k.user_scope,
          user_id: k.user_scope || null,
          ...fields,
          tools: [k.t1, k.t2],
          content: `---\nname: ${fields.name}\n---\n# ${fields.name}\n`,
          hash: k.hash,
          embedding: `{${v.embedding.join(",")}}`,
          embedder_id: v.embedderId,
          query_embeddings: JSON.stringify(v.queryEmbeddings),
        };
      }),
    );
    await db.query(
      `INSERT INTO skills (id, agent_id, user_scope, user_id, name, description, preconditions, tools, queries, content, status, version,
                           injection_role, source_canonical_hash, source_workflow_ids, baseline, recent_outcomes, embedding, embedder_id,
                           query_embeddings, review_flags, updated_at, promoted_at)
       SELECT d->>'id', d->>'agent_id', d->>'user_scope', d->>'user_id', d->>'name', d->>'description',
              ARRAY(SELECT jsonb_array_elements_text(d->'preconditions')), ARRAY(SELECT jsonb_array_elements_text(d->'tools')),
              ARRAY(SELECT jsonb_array_elements_text(d->'queries')), d->>'content', 'ACTIVE', 1, 'USER', d->>'hash', '{}',
              '{"executions": 100, "success_rate": 0.9}', '{}', (d->>'embedding')::real[], d->>'embedder_id',
              (d->>'query_embeddings')::jsonb, '{}', now(), now()
       FROM jsonb_array_elements($1::jsonb) AS d`,
      [JSON.stringify(docs)],
    );
  }
  await db.query("UPDATE agents SET skills_version = skills_version + 1 WHERE id LIKE 'bench-agent-%'");
  const { rows: n } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM skills WHERE status = 'ACTIVE'");
  return n[0].n;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

function p95(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)];
}

function p50(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
}
