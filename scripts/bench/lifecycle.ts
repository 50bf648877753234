// `npm run bench:lifecycle`, on PostgreSQL against the built console with its
// in-process worker:
// (a) an agent with 50,000 runs (plus their classes, daily counts, distinct queries and
//     conversations; 10,000 with --quick) deleted through DELETE /api/v1/agents/{id} while a probe
//     fetches /api/health and the console's agents page every 100 ms. Prints the deletion's batches
//     and longest batch (from its agent.deleted audit row), the longest open transaction seen in
//     pg_stat_activity (sampled every 50 ms), and the probe's p50 / p99 / max.
// (b) the JSON-lines export of an agent's 100,000 runs (20,000 with --quick) streamed by a client
//     that reads as fast as it can, the server's RSS sampled meanwhile: rows/s beside the floor
//     (the same rows read by this process straight from PostgreSQL in keyset batches, no HTTP, no
//     JSON building), and the peak RSS beside the idle RSS (ceiling 1 GiB).
// Runs are seeded with SQL (generate_series), not through the API.
// Targets: every run deleted and exported, the longest deletion batch under 1 s, the probe
// answered throughout, the server's peak RSS under 1 GiB. Figures: docs/benchmarks.md#lifecycle.
import http from "node:http";
import pg from "pg";
import { ADMIN_EMAIL, ADMIN_KEY, ADMIN_PASSWORD, startTestServer } from "../../tests/helpers/server.ts";
import { login } from "../../tests/helpers/http.ts";
import { ensureBuild, httpClient, largestDescendant, memoryOf, mib, percentile, QUICK, sampleRss, sleep, Verdicts } from "./measure.ts";

const DELETE_RUNS = Number(process.env.BENCH_DELETE_RUNS ?? (QUICK ? 10_000 : 50_000));
const EXPORT_RUNS = Number(process.env.BENCH_EXPORT_RUNS ?? (QUICK ? 20_000 : 100_000));
const PROBE_EVERY_MS = 100;

/** Runs of `agentId` in bulk: ~1 KB of steps each, 3 users, 20 classes, one a minute. */
async function seedRuns(sql: pg.Pool, agentId: string, runs: number) {
  await sql.query(
    `INSERT INTO workflows (id, agent_id, workflow_id, user_id, user_scope, query, normalized_query, steps, outcome, outcome_source,
                            canonical_hash, step_count, skills_activated, embedding, embedder_id, body_hash, created_at)
     SELECT $1 || '-' || i, $1, 'run-' || i, NULLIF('u' || (i % 3), 'u0'), CASE WHEN i % 3 = 0 THEN '' ELSE 'u' || (i % 3) END,
            'Refund order N' || i, 'refund order n' || i,
            jsonb_build_array(
              jsonb_build_object('tool', 'lookup_order', 'arguments', jsonb_build_object('order_id', 'N' || i), 'result', jsonb_build_object('status', 'paid', 'note', repeat('x', 400))),
              jsonb_build_object('tool', 'issue_refund', 'arguments', jsonb_build_object('order_id', 'N' || i), 'result', jsonb_build_object('accepted', i % 7 <> 0, 'note', repeat('y', 400)))),
            CASE WHEN i % 7 = 0 THEN 'FAILURE'::"Outcome" ELSE 'SUCCESS'::"Outcome" END, 'REPORTED'::"OutcomeSource",
            md5($1 || (i % 20)), 2, '{}', '{}', 'bench', md5(i::text), timestamptz '2026-01-01' + make_interval(mins => i)
     FROM generate_series(0, $2::int - 1) i`,
    [agentId, runs],
  );
  await sql.query(
    `INSERT INTO trajectory_classes (agent_id, user_scope, canonical_hash, signature, tools, executions, successes, distinct_queries, first_seen, last_seen)
     SELECT agent_id, user_scope, canonical_hash, '[]', ARRAY['lookup_order', 'issue_refund'], count(*), count(*) FILTER (WHERE outcome = 'SUCCESS'),
            count(*), min(created_at), max(created_at)
     FROM workflows WHERE agent_id = $1 GROUP BY 1, 2, 3`,
    [agentId],
  );
  await sql.query(
    `INSERT INTO trajectory_class_queries (agent_id, user_scope, canonical_hash, normalized_query, first_seen)
     SELECT agent_id, user_scope, canonical_hash, normalized_query, created_at FROM workflows WHERE agent_id = $1`,
    [agentId],
  );
  await sql.query(
    `INSERT INTO trajectory_class_days (agent_id, user_scope, canonical_hash, day, executions, successes)
     SELECT agent_id, user_scope, canonical_hash, (created_at AT TIME ZONE 'UTC')::date, count(*), count(*) FILTER (WHERE outcome = 'SUCCESS')
     FROM workflows WHERE agent_id = $1 GROUP BY 1, 2, 3, 4`,
    [agentId],
  );
  await sql.query(
    `INSERT INTO conversation_messages (id, agent_id, thread_id, user_id, message_id, role, text, timestamp)
     SELECT $1 || '-m' || i, $1, 't' || (i / 10), 'u1', 'm' || i, 'user', 'Where is my refund ' || i, timestamptz '2026-01-01' + make_interval(mins => i)
     FROM generate_series(0, $2::int / 5 - 1) i`,
    [agentId, runs],
  );
  await sql.query(`INSERT INTO agent_run_counters (agent_id, slot, runs, last_run_at) VALUES ($1, 0, $2, now())`, [agentId, runs]);
  await sql.query("ANALYZE");
}

/** GETs `path` every PROBE_EVERY_MS until stopped; the latencies in ms. */
function probe(baseUrl: string, path: string, headers: Record<string, string>) {
  const latencies: number[] = [];
  const failures: string[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const r = await fetch(baseUrl + path, { headers, redirect: "manual" });
        await r.arrayBuffer();
        if (r.status !== 200) failures.push(String(r.status));
      } catch (e) {
        failures.push((e as Error).message);
      }
      const ms = performance.now() - started;
      latencies.push(ms);
      await sleep(Math.max(0, PROBE_EVERY_MS - ms));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const sorted = [...latencies].sort((a, b) => a - b);
      return { n: sorted.length, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted[sorted.length - 1] ?? 0, failures };
    },
  };
}

/** The longest open transaction of other sessions on the database, sampled every 50 ms. */
function longestTransaction(sql: pg.Pool) {
  let longestMs = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const { rows } = await sql.query<{ ms: number | null }>(
        `SELECT max(extract(epoch FROM clock_timestamp() - xact_start) * 1000)::float8 AS ms FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid() AND xact_start IS NOT NULL AND backend_type = 'client backend'`,
      );
      longestMs = Math.max(longestMs, rows[0]?.ms ?? 0);
      await sleep(50);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return longestMs;
    },
  };
}

/** Streams the export, counting lines; resolves when the body ends. */
function streamExport(baseUrl: string, path: string, key: string): Promise<{ status: number; lines: number; bytes: number }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    http
      .get({ host: url.hostname, port: url.port, path, headers: { authorization: `Bearer ${key}` } }, (res) => {
        let lines = 0;
        let bytes = 0;
        res.on("data", (d: Buffer) => {
          bytes += d.length;
          for (let i = d.indexOf(10); i !== -1; i = d.indexOf(10, i + 1)) lines++;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, lines, bytes }));
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

/** The floor: the same rows read straight from PostgreSQL in keyset batches of 500. */
async function sqlFloor(sql: pg.Pool, agentId: string): Promise<{ rows: number; seconds: number }> {
  const started = performance.now();
  let rows = 0;
  let after: [Date, string] | null = null;
  for (;;) {
    const r: pg.QueryResult<{ id: string; created_at: Date }> = await sql.query(
      `SELECT * FROM workflows WHERE agent_id = $1 ${after ? "AND (created_at, id) > ($2, $3)" : ""} ORDER BY created_at, id LIMIT 500`,
      after ? [agentId, ...after] : [agentId],
    );
    rows += r.rows.length;
    if (r.rows.length < 500) break;
    const last = r.rows[r.rows.length - 1];
    after = [last.created_at, last.id];
  }
  return { rows, seconds: (performance.now() - started) / 1000 };
}

ensureBuild();
console.log(`lifecycle: delete an agent of ${DELETE_RUNS} runs under a probe; export ${EXPORT_RUNS} runs as JSON lines (PostgreSQL)`);
const server = await startTestServer({ kind: "postgres", dedicated: true });
const v = new Verdicts();
try {
  const client = httpClient(server.baseUrl, 4);
  const pid = largestDescendant(server.pid);
  for (const agent of ["bench-delete", "bench-export"]) {
    const r = await client.send("PUT", `/api/v1/agents/${agent}`, JSON.stringify({ name: agent, tools: [{ name: "lookup_order" }, { name: "issue_refund" }] }));
    if (r.status !== 200) throw new Error(`PUT agent answered ${r.status}: ${r.body}`);
  }
  let started = performance.now();
  await seedRuns(server.sql, "bench-delete", DELETE_RUNS);
  await seedRuns(server.sql, "bench-export", EXPORT_RUNS);
  console.log(`seeded ${DELETE_RUNS + EXPORT_RUNS} runs with SQL in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);

  // (a) deletion under a probe
  const health = probe(server.baseUrl, "/api/health", {});
  const page = probe(server.baseUrl, "/agents", admin.headers);
  const xact = longestTransaction(server.sql);
  await sleep(1000);
  started = performance.now();
  const del = await client.send("DELETE", "/api/v1/agents/bench-delete", JSON.stringify({ reason: "benchmark" }));
  if (del.status !== 202) throw new Error(`DELETE answered ${del.status}: ${del.body}`);
  for (;;) {
    const { rows } = await server.sql.query("SELECT 1 FROM agents WHERE id = 'bench-delete'");
    if (rows.length === 0) break;
    await sleep(100);
  }
  const deleteSeconds = (performance.now() - started) / 1000;
  await sleep(500);
  const [h, p, longestXactMs] = [await health.stop(), await page.stop(), await xact.stop()];
  const { rows: audit } = await server.sql.query<{ details: { rows: Record<string, number>; batches: number; longest_batch_ms: number } }>(
    "SELECT details FROM audit_events WHERE action = 'agent.deleted' AND target_id = 'bench-delete'",
  );
  const d = audit[0].details;
  const total = Object.values(d.rows).reduce((a, b) => a + b, 0);
  console.log(`(a) deleted ${total} rows (${d.rows.workflows} runs) in ${deleteSeconds.toFixed(1)} s: ${d.batches} batches, longest batch ${d.longest_batch_ms} ms`);
  console.log(`    longest open transaction seen (pg_stat_activity, any session): ${longestXactMs.toFixed(0)} ms`);
  const line = (name: string, r: typeof h) =>
    `    probe ${name}: ${r.n} requests, p50 ${r.p50.toFixed(0)} ms, p99 ${r.p99.toFixed(0)} ms, max ${r.max.toFixed(0)} ms${r.failures.length ? `, ${r.failures.length} failed` : ""}`;
  console.log(line("/api/health", h));
  console.log(line("/agents (console page)", p));
  v.check("every run deleted", d.rows.workflows === DELETE_RUNS, `${d.rows.workflows} of ${DELETE_RUNS}`);
  v.check("longest deletion batch < 1 s", d.longest_batch_ms < 1000, `${d.longest_batch_ms} ms`);
  v.check("the probe was answered throughout", h.failures.length + p.failures.length === 0, `${h.failures.length + p.failures.length} failures`);

  // (b) export under an RSS sampler
  await sleep(1000);
  const idleKb = memoryOf(pid)?.rssKb ?? 0;
  const sampler = sampleRss(pid, 100);
  started = performance.now();
  const exp = await streamExport(server.baseUrl, "/api/v1/agents/bench-export/workflows/export", ADMIN_KEY);
  const exportSeconds = (performance.now() - started) / 1000;
  const peakKb = sampler.stop();
  const floor = await sqlFloor(server.sql, "bench-export");
  console.log(
    `(b) export: ${exp.lines} runs, ${(exp.bytes / 2 ** 20).toFixed(0)} MiB in ${exportSeconds.toFixed(1)} s = ${(exp.lines / exportSeconds).toFixed(0)} rows/s ` +
      `(floor: the same rows straight from PostgreSQL ${(floor.rows / floor.seconds).toFixed(0)} rows/s)`,
  );
  console.log(`    server RSS idle ${mib(idleKb)}, peak while exporting ${mib(peakKb)}`);
  v.check("every run exported", exp.status === 200 && exp.lines === EXPORT_RUNS, `${exp.status}, ${exp.lines} of ${EXPORT_RUNS}`);
  v.peakRss(peakKb);
  client.close();
} finally {
  await server.stop();
}
process.exit(v.failed ? 1 : 0);
