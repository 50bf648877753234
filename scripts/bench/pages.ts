// `npm run bench:pages`: time to first byte of the console's pages on the demo data, on
// PostgreSQL (target: every page's first byte under 500 ms at p95, so a navigation feels
// immediate). Starts the built console on a new database, loads `npm run seed:demo` into it, signs in as the admin,
// then requests each page N times in turn (after one warm-up each) and prints p50/p95 time to
// first byte and to the last byte per page, beside the floor: the same server answering its
// sign-in page, which reads no data. Pages stream (loading.tsx), so the last byte is printed too.
// On top of the demo data, BENCH_PAGE_CLASSES trajectory classes (some ready for review) and
// BENCH_PAGE_SKILLS skills on them are bulk-loaded for the demo agent, since every page's
// sidebar counts what awaits a decision across them. The server's CPU per request is printed.
// Knobs (environment): BENCH_PAGE_REPEATS (20; 5 with --quick), BENCH_PAGE_CLASSES (10000),
// BENCH_PAGE_SKILLS (1000).
import http from "node:http";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer } from "../../tests/helpers/server.ts";
import { login } from "../../tests/helpers/http.ts";
import { DEMO_AGENT_ID } from "../demo/data.ts";
import { cpuMsOfTree, ensureBuild, largestDescendant, memoryOf, mib, percentile, QUICK, Verdicts } from "./measure.ts";

const REPEATS = Number(process.env.BENCH_PAGE_REPEATS ?? (QUICK ? 5 : 20));
const CLASSES = Number(process.env.BENCH_PAGE_CLASSES ?? 10_000);
const SKILLS = Number(process.env.BENCH_PAGE_SKILLS ?? 1_000);
const TARGET_MS = 500;
const ROOT = path.resolve(import.meta.dirname, "../..");

ensureBuild();
const server = await startTestServer({ kind: "postgres" });
try {
  console.log("loading the demo data (npm run seed:demo)…");
  const seeded = spawnSync(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "scripts/seed-demo.ts"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: server.databaseUrl, NEXTAUTH_URL: server.baseUrl },
    encoding: "utf8",
  });
  if (seeded.status !== 0) throw new Error(`seed:demo failed:\n${seeded.stdout}\n${seeded.stderr}`);
  console.log(`adding ${CLASSES.toLocaleString("en")} trajectory classes and ${SKILLS.toLocaleString("en")} skills…`);
  await loadScale(server.sql);

  const ids = await pickIds(server.sql);
  const { headers } = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  const a = encodeURIComponent(DEMO_AGENT_ID);
  const pages: [string, string][] = [
    ["floor: sign-in page", "/login"],
    ["home", "/"],
    ["agents", "/agents"],
    ["agent", `/agents/${a}`],
    ["agent settings", `/agents/${a}/settings`],
    ["workflows (classes)", `/workflows?agent=${a}`],
    ["a class", `/workflows?agent=${a}&class=${ids.classHash}&class_agent=${a}`],
    ["a run", `/workflows/runs/${encodeURIComponent(ids.runId)}`],
    ["skills", `/skills?agent=${a}`],
    ["a skill", `/skills?agent=${a}&skill=${encodeURIComponent(ids.skillId ?? "")}`],
    ["traces", `/traces?agent_id=${a}`],
    ["traces (all agents)", "/traces"],
    ["accounts", "/accounts"],
    ["runs (unfiltered)", "/workflows/runs"],
    ["a conversation", `/traces?agent_id=${a}&user_id=${encodeURIComponent(ids.userId)}`],
    ["persona", `/persona-evolution?user_id=${encodeURIComponent(ids.userId)}`],
    ["ledger", "/ledger"],
    ["audit", "/audit"],
    ["API keys", "/settings/api-keys"],
    ["users", "/settings/users"],
  ];
  const cookie = String(headers.cookie);
  const rss = () => memoryOf(largestDescendant(server.pid))?.rssKb ?? 0;
  let peak = rss();
  const verdicts = new Verdicts();
  console.log(`\n${REPEATS} requests per page after a warm-up, one at a time (ms):`);
  console.log(`  ${"page".padEnd(22)} ${"status".padStart(6)} ${"TTFB p50".padStart(9)} ${"TTFB p95".padStart(9)} ${"last p50".padStart(9)} ${"last p95".padStart(9)} ${"CPU/req".padStart(8)}`);
  for (const [name, pathname] of pages) {
    const first: number[] = [];
    const last: number[] = [];
    let status = 0;
    let cpuMs = 0;
    for (let i = 0; i <= REPEATS; i++) {
      const cpuBefore = cpuMsOfTree(server.pid);
      const t = await timedGet(server.baseUrl, pathname, name.startsWith("floor") ? "" : cookie);
      status = t.status;
      if (i > 0) {
        cpuMs += cpuMsOfTree(server.pid) - cpuBefore;
        first.push(t.firstByteMs);
        last.push(t.lastByteMs);
      }
      peak = Math.max(peak, rss());
    }
    first.sort((x, y) => x - y);
    last.sort((x, y) => x - y);
    const f = (v: number) => v.toFixed(0).padStart(9);
    console.log(`  ${name.padEnd(22)} ${String(status).padStart(6)} ${f(percentile(first, 50))} ${f(percentile(first, 95))} ${f(percentile(last, 50))} ${f(percentile(last, 95))} ${(cpuMs / REPEATS).toFixed(0).padStart(8)}`);
    if (!name.startsWith("floor")) verdicts.check(`${name} first byte p95 < ${TARGET_MS} ms (HTTP ${status})`, status === 200 && percentile(first, 95) < TARGET_MS, `${percentile(first, 95).toFixed(0)} ms`);
  }
  verdicts.check("server peak RSS < 1 GiB", peak < 1024 * 1024, mib(peak));
  process.exitCode = verdicts.failed ? 1 : 0;
} finally {
  await server.stop();
}

/**
 * The demo agent's classes at scale: class k has 3 + k % 20 runs at 70–100% success over
 * 1 + k % 5 distinct queries, last seen k % 45 days ago (so some pass every gate); the first
 * SKILLS classes carry a skill (active, shadow or candidate).
 */
async function loadScale(sql: import("pg").Pool) {
  await sql.query(
    `INSERT INTO trajectory_classes (agent_id, user_scope, canonical_hash, signature, tools, executions, successes, distinct_queries, first_seen, last_seen)
     SELECT $1, '', md5('bench' || k) || md5('class' || k), '[]', ARRAY['tool_' || (k % 40), 'tool_' || (k % 7)],
            3 + k % 20, (3 + k % 20) * (10 - k % 4) / 10, 1 + k % 5, now() - interval '60 days', now() - make_interval(days => k % 45)
     FROM generate_series(0, $2::int - 1) k`,
    [DEMO_AGENT_ID, CLASSES],
  );
  await sql.query(
    `INSERT INTO skills (id, agent_id, user_scope, name, description, preconditions, tools, queries, content, status, version,
                         source_canonical_hash, source_workflow_ids, baseline, recent_outcomes, embedding, embedder_id, review_flags, updated_at)
     SELECT 'bench-skill-' || k, $1, '', 'bench-skill-' || k, 'When a customer asks', '{}', '{}', '{}', '# skill',
            (ARRAY['ACTIVE','SHADOW','CANDIDATE'])[1 + k % 3]::"SkillStatus", 1, md5('bench' || k) || md5('class' || k), '{}',
            '{"executions": 10, "success_rate": 0.9}', '{}', '{}', 'bench', '{}', now()
     FROM generate_series(0, $2::int - 1) k`,
    [DEMO_AGENT_ID, Math.min(SKILLS, CLASSES)],
  );
  await sql.query("ANALYZE");
}

async function pickIds(sql: import("pg").Pool) {
  const one = async <T>(text: string): Promise<T> => (await sql.query(text, [DEMO_AGENT_ID])).rows[0] as T;
  const run = await one<{ id: string; canonical_hash: string }>("SELECT id, canonical_hash FROM workflows WHERE agent_id = $1 ORDER BY created_at DESC LIMIT 1");
  const skill = await one<{ id: string } | undefined>("SELECT id FROM skills WHERE agent_id = $1 ORDER BY created_at DESC LIMIT 1");
  const user = await one<{ user_id: string }>("SELECT user_id FROM conversation_messages WHERE agent_id = $1 AND user_id IS NOT NULL LIMIT 1");
  return { runId: run.id, classHash: run.canonical_hash, skillId: skill?.id ?? null, userId: user.user_id };
}

/** One GET: milliseconds until the response head arrived (first byte) and until its end. */
function timedGet(baseUrl: string, pathname: string, cookie: string): Promise<{ status: number; firstByteMs: number; lastByteMs: number }> {
  const url = new URL(pathname, baseUrl);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.get(url, { headers: cookie ? { cookie } : {} }, (res) => {
      const firstByteMs = performance.now() - started;
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, firstByteMs, lastByteMs: performance.now() - started }));
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}
