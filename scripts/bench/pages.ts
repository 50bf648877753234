// `npm run bench:pages`: time to first byte of the console's pages on the demo data, on
// PostgreSQL (issue 15's target: every page navigation under 500 ms to first byte). Starts the
// built console on a new database, loads `npm run seed:demo` into it, signs in as the admin,
// then requests each page N times in turn (after one warm-up each) and prints p50/p95 time to
// first byte and to the last byte per page, beside the floor: the same server answering its
// sign-in page, which reads no data. Pages stream (loading.tsx), so the last byte is printed too.
// Knobs (environment): BENCH_PAGE_REPEATS (20; 5 with --quick).
import http from "node:http";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer } from "../../tests/helpers/server.ts";
import { login } from "../../tests/helpers/http.ts";
import { DEMO_AGENT_ID } from "../demo/data.ts";
import { ensureBuild, largestDescendant, memoryOf, mib, percentile, QUICK, Verdicts } from "./measure.ts";

const REPEATS = Number(process.env.BENCH_PAGE_REPEATS ?? (QUICK ? 5 : 20));
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
  console.log(`  ${"page".padEnd(22)} ${"status".padStart(6)} ${"TTFB p50".padStart(9)} ${"TTFB p95".padStart(9)} ${"last p50".padStart(9)} ${"last p95".padStart(9)}`);
  for (const [name, pathname] of pages) {
    const first: number[] = [];
    const last: number[] = [];
    let status = 0;
    for (let i = 0; i <= REPEATS; i++) {
      const t = await timedGet(server.baseUrl, pathname, name.startsWith("floor") ? "" : cookie);
      status = t.status;
      if (i > 0) {
        first.push(t.firstByteMs);
        last.push(t.lastByteMs);
      }
      peak = Math.max(peak, rss());
    }
    first.sort((x, y) => x - y);
    last.sort((x, y) => x - y);
    const f = (v: number) => v.toFixed(0).padStart(9);
    console.log(`  ${name.padEnd(22)} ${String(status).padStart(6)} ${f(percentile(first, 50))} ${f(percentile(first, 95))} ${f(percentile(last, 50))} ${f(percentile(last, 95))}`);
    if (!name.startsWith("floor")) verdicts.check(`${name} first byte p95 < ${TARGET_MS} ms (HTTP ${status})`, status === 200 && percentile(first, 95) < TARGET_MS, `${percentile(first, 95).toFixed(0)} ms`);
  }
  verdicts.check("server peak RSS < 1 GiB", peak < 1024 * 1024, mib(peak));
  process.exitCode = verdicts.failed ? 1 : 0;
} finally {
  await server.stop();
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
