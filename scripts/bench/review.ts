// `npm run bench:review`: the review pages' list queries at the benchmark's scale
// on PostgreSQL. 1,000,000 workflows across 10,000 trajectory classes and 5 agents (with 20
// distinct queries per class), and skills on 30% of the classes (active, shadow, and demoted
// ones whose gates count the runs after the demotion) are bulk-loaded with INSERT … SELECT
// generate_series; then the page's queries are timed in-process (20 runs each, after a warm-up)
// and printed with PASS/FAIL against the 300 ms target.
//
// In-process (no HTTP), so it has no framework floor; ./measure.ts gives it --quick. The process
// running the queries is the server here: its peak RSS (VmHWM) is held to the 1 GiB limit.
// The accounts and traces lists and the unfiltered runs list are timed too: the runs of pooled
// classes carry BENCH_ACCOUNTS accounts, every two runs share a thread, every account has a
// conversation message; the activity summaries fill through their triggers as the rows load.
// Knobs (environment): BENCH_WORKFLOWS (1000000; 50000 with --quick), BENCH_CLASSES (10000;
// 1000 with --quick), BENCH_AGENTS (5), BENCH_ACCOUNTS (100000; 10000 with --quick).
import pg from "pg";
import { loadavg } from "node:os";
import { createPostgresDatabase } from "../../tests/helpers/server.ts";
import { applyMigrations } from "../db/migrate.ts";
import { createPrismaClient } from "../../lib/db/prisma.ts";
import { classStatusCountsByAgent, listReviewClasses, totalCounts } from "../../lib/learning/review/class-list.ts";
import { agentConfigs } from "../../lib/learning/review/agent-configs.ts";
import { agentRollup, workflowSummary } from "../../lib/learning/review/summary.ts";
import { getClassDetail, listClassRuns } from "../../lib/learning/review/class-detail.ts";
import { listReviewSkills } from "../../lib/learning/review/skill-list.ts";
import { listAccounts } from "../../lib/accounts/account-list.ts";
import { listThreads } from "../../lib/traces/timeline.ts";
import { listRuns, runsQuerySchema } from "../../lib/learning/review/run-list.ts";
import { memoryOf, QUICK, Verdicts } from "./measure.ts";

const WORKFLOWS = Number(process.env.BENCH_WORKFLOWS ?? (QUICK ? 50_000 : 1_000_000));
const CLASSES = Number(process.env.BENCH_CLASSES ?? (QUICK ? 1_000 : 10_000));
const AGENTS = Number(process.env.BENCH_AGENTS ?? 5);
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? (QUICK ? 10_000 : 100_000));
const TARGET_MS = 300;

const database = await createPostgresDatabase();
try {
  await applyMigrations(database.url);
  const sql = new pg.Pool({ connectionString: database.url, max: 2 });
  console.log(`loading ${WORKFLOWS.toLocaleString()} workflows across ${CLASSES.toLocaleString()} classes and ${AGENTS} agents…`);
  const t0 = performance.now();
  await load(sql);
  console.log(`loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  await sql.end();
  await measure(database.url);
} finally {
  await database.drop();
}

async function load(sql: pg.Pool) {
  const perClass = Math.max(1, Math.floor(WORKFLOWS / CLASSES));
  const c = await sql.connect();
  try {
    await c.query("SET maintenance_work_mem = '256MB'");
    await c.query("SET synchronous_commit = off");
    await c.query(`INSERT INTO agents (id, name, updated_at) SELECT 'bench-agent-' || a, 'Bench ' || a, now() FROM generate_series(0, ${AGENTS - 1}) a`);
    // Class k: agent k % AGENTS; half without a user; success rate 100/90/80/70% by k % 4;
    // last seen (k % 45) days ago; the tool path tool_(k % 40) → tool_((k / 40 + k + 1) % 40).
    await c.query(`
      CREATE TEMP TABLE bench_classes AS
      SELECT k, 'bench-agent-' || (k % ${AGENTS}) AS agent_id,
             CASE WHEN k % 2 = 0 THEN '' ELSE 'user-' || (k % 101) END AS user_scope,
             md5('class' || k) || md5('x' || k) AS hash,
             ARRAY['tool_' || (k % 40), 'tool_' || ((k / 40 + k + 1) % 40)] AS tools
      FROM generate_series(0, ${CLASSES - 1}) k`);
    const { rows: indexes } = await c.query<{ indexname: string; indexdef: string }>(
      "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'workflows' AND indexname <> 'workflows_pkey'",
    );
    for (const ix of indexes) await c.query(`DROP INDEX "${ix.indexname}"`);
    await c.query(`
      INSERT INTO workflows (id, agent_id, workflow_id, user_id, user_scope, thread_id, query, normalized_query, steps, outcome, outcome_source,
                             canonical_hash, step_count, skills_activated, embedding, embedder_id, body_hash, created_at)
      SELECT 'bw' || i, b.agent_id, 'run-' || i, COALESCE(NULLIF(b.user_scope, ''), 'acct-' || (i % ${ACCOUNTS})), b.user_scope, 'th-' || (i / 2),
             'Refund order N' || (i / ${CLASSES}) % 20, 'refund order n' || (i / ${CLASSES}) % 20, '[]',
             CASE WHEN ((i / ${CLASSES}) * 7 + b.k) % 10 < b.k % 4 THEN 'FAILURE'::"Outcome" ELSE 'SUCCESS'::"Outcome" END,
             'REPORTED'::"OutcomeSource", b.hash, 2, '{}', '{}', 'bench', 'b' || i,
             now() - make_interval(days => b.k % 45) - make_interval(hours => (i / ${CLASSES}))
      FROM generate_series(0, ${perClass * CLASSES - 1}) i
      JOIN bench_classes b ON b.k = i % ${CLASSES}`);
    for (const ix of indexes) await c.query(ix.indexdef);
    await c.query(`
      INSERT INTO agent_run_counters (agent_id, slot, runs, last_run_at)
      SELECT agent_id, 0, count(*), max(created_at) FROM workflows GROUP BY agent_id`);
    await c.query(`
      INSERT INTO conversation_messages (id, agent_id, thread_id, user_id, message_id, role, text, timestamp)
      SELECT 'bm' || a, 'bench-agent-' || (a % ${AGENTS}), 'conv-' || a, 'acct-' || a, 'm' || a, 'user', 'Where is my refund?', now() - make_interval(mins => a % 5000)
      FROM generate_series(0, ${ACCOUNTS - 1}) a`);
    await c.query(`
      INSERT INTO trajectory_classes (agent_id, user_scope, canonical_hash, signature, tools, executions, successes, distinct_queries, first_seen, last_seen)
      SELECT b.agent_id, b.user_scope, b.hash, '[]', b.tools, s.executions, s.successes, s.distinct_queries, s.first_seen, s.last_seen
      FROM (SELECT canonical_hash, count(*)::int AS executions, (count(*) FILTER (WHERE outcome = 'SUCCESS'))::int AS successes,
                   count(DISTINCT normalized_query)::int AS distinct_queries, min(created_at) AS first_seen, max(created_at) AS last_seen
            FROM workflows GROUP BY canonical_hash) s
      JOIN bench_classes b ON b.hash = s.canonical_hash`);
    await c.query(`
      INSERT INTO trajectory_class_queries (agent_id, user_scope, canonical_hash, normalized_query, first_seen)
      SELECT agent_id, user_scope, canonical_hash, normalized_query, min(created_at) FROM workflows
      GROUP BY agent_id, user_scope, canonical_hash, normalized_query`);
    await c.query(`
      INSERT INTO trajectory_class_days (agent_id, user_scope, canonical_hash, day, executions, successes)
      SELECT agent_id, user_scope, canonical_hash, (created_at AT TIME ZONE 'UTC')::date, count(*)::int, (count(*) FILTER (WHERE outcome = 'SUCCESS'))::int
      FROM workflows GROUP BY 1, 2, 3, 4`);
    // Skills on 30% of the classes: k % 10 = 0, 1 → ACTIVE; 2 → SHADOW; 3 → DEMOTED 10 days ago.
    await c.query(`
      INSERT INTO skills (id, agent_id, user_scope, user_id, name, description, preconditions, tools, queries, content, status, version,
                          source_canonical_hash, source_workflow_ids, baseline, recent_outcomes, embedding, embedder_id, review_flags,
                          demoted_at, demotion_reason, promoted_at, updated_at)
      SELECT 'sk' || b.k, b.agent_id, b.user_scope, NULLIF(b.user_scope, ''), 'skill-' || b.k, 'When a customer asks', '{}', b.tools, '{}',
             '---\nname: skill\n---\n# skill', (ARRAY['ACTIVE','ACTIVE','SHADOW','DEMOTED'])[1 + b.k % 10]::"SkillStatus", 1,
             b.hash, '{}', '{"executions": 100, "success_rate": 0.9}', '{}', '{}', 'bench', '{}',
             CASE WHEN b.k % 10 = 3 THEN now() - interval '10 days' END, CASE WHEN b.k % 10 = 3 THEN 'drift' END,
             CASE WHEN b.k % 10 < 2 THEN now() END, now()
      FROM bench_classes b WHERE b.k % 10 < 4`);
    await c.query("ANALYZE");
  } finally {
    c.release();
  }
}

async function measure(url: string) {
  const db = createPrismaClient(url, 4);
  const agent = "bench-agent-0";
  const base = { sort: "status" as const, page: 1, page_size: 25 };
  const agents = await agentConfigs(db);
  const first = (await listReviewClasses(db, { ...base, agent })).rows[0];
  const key = { agentId: first.agentId, userScope: first.userScope, canonicalHash: first.canonicalHash };
  const cases: [string, () => Promise<unknown>][] = [
    ["classes: one agent, first page, status order", () => listReviewClasses(db, { ...base, agent })],
    ["classes: one agent, ready only, by last seen", () => listReviewClasses(db, { ...base, agent, status: "ready", sort: "last_seen" })],
    ["classes: one agent, tool filter", () => listReviewClasses(db, { ...base, agent, q: "tool_7" })],
    ["classes: one agent, query-text filter", () => listReviewClasses(db, { ...base, agent, q: "refund order n1" })],
    ["classes: all agents, first page", () => listReviewClasses(db, base)],
    ["classes: all agents, page 200, by runs", () => listReviewClasses(db, { ...base, sort: "runs", page: 200 })],
    // With a text filter the page counts every class again for the strip and the roll-up.
    ["summary strip + roll-up (all agents, filtered page)", async () => {
      const byAgent = await classStatusCountsByAgent(db, agents, undefined, new Date());
      await Promise.all([workflowSummary(db, agents, totalCounts(byAgent)), agentRollup(db, agents, byAgent, 1, 10)]);
    }],
    ["class detail + newest runs", async () => getClassDetail(db, key).then(() => listClassRuns(db, key, 1, 10))],
    ["skills: all agents, first page", () => listReviewSkills(db, { sort: "lifecycle", page: 1, page_size: 25 })],
    ["accounts: all agents, first page", () => listAccounts(db, { after: null, pageSize: 25 })],
    ["accounts: one agent, first page", () => listAccounts(db, { agent, after: null, pageSize: 25 })],
    ["traces: all threads, first page", () => listThreads(db, {}, { after: null, pageSize: 50 })],
    ["runs: all agents, unfiltered, first page", () => listRuns(db, runsQuerySchema.parse({}))],
    ["runs: one agent, page 100", () => listRuns(db, runsQuerySchema.parse({ agent, page: "100" }))],
    ["skills: one agent, shadow, text filter", () => listReviewSkills(db, { sort: "lifecycle", page: 1, page_size: 25, agent, status: "shadow", q: "skill-1" })],
  ];
  const counts = totalCounts(await classStatusCountsByAgent(db, agents, undefined, new Date()));
  console.log(`class statuses (all agents): ${JSON.stringify(counts)}`);
  console.log("\n=== review pages benchmark (PostgreSQL, in-process) ===");
  let ok = true;
  for (const [name, fn] of cases) {
    await fn();
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      await fn();
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const p50 = times[10], p95 = times[18];
    const pass = p95 <= TARGET_MS;
    ok &&= pass;
    console.log(`${pass ? "PASS" : "FAIL"}  ${name}: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms (target ≤ ${TARGET_MS} ms)`);
  }
  const v = new Verdicts();
  v.peakRss(memoryOf(process.pid)?.hwmKb ?? 0);
  console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(" ")}`);
  await db.$disconnect();
  process.exitCode = ok && !v.failed ? 0 : 1;
}
