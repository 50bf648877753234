// `npm run bench:hostile [-- --quick]`: what a hostile request costs everyone else. Each payload
// class of ./hostile-classes.ts (big OTLP exports, regex bombs, deep JSON, a poisoned trace, a
// flood) is sent to the built console on a fresh PostgreSQL database, started as `npm start`
// runs it (scripts/start.ts with package.json's heap flags, --max-old-space-size=384, the worker
// in process; without the supervisor, so that a death is seen, not restarted), while a probe on
// a thread of its own reads /api/health every 50 ms (./stall-probe.ts). Per class: the longest
// health stall, the peak RSS of the server's process tree, whether the process survived (a dead
// server is started again for the next class), and the class's own checks on the answers.
// Targets per class: no stall over 250 ms, RSS < 1 GiB, no crash, every check holding. Figures:
// docs/benchmarks.md#hostile. The machine's load makes stalls pessimistic: the load average is
// printed beside them.
// Knobs: BENCH_HOSTILE_CLASSES (comma-separated class names, default all).
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { startTestServer, ADMIN_KEY } from "../../tests/helpers/server.ts";
import { createPrismaClient } from "../../lib/db/prisma.ts";
import { createApiKey } from "../../lib/auth/api-keys.ts";
import { CLASSES, type Check, type Context } from "./hostile-classes.ts";
import { stallProbe, type Window } from "./stall-probe.ts";
import { ensureBuild, mib, QUICK, RSS_LIMIT_KB, sleep, Verdicts } from "./measure.ts";

const STALL_LIMIT_MS = 250;
const only = process.env.BENCH_HOSTILE_CLASSES?.split(",").map((s) => s.trim());
const classes = CLASSES.filter((c) => !only || only.includes(c.name));

ensureBuild();
console.log(`hostile: ${classes.map((c) => c.name).join(", ")} against one server (PostgreSQL, npm start's heap flags, worker in process)${QUICK ? ", quick" : ""}`);
const server = await startTestServer({ kind: "postgres", env: { PROCTOR_LLM_BASE_URL: "", PROCTOR_LLM_API_KEY: "" }, startTimeoutMs: 300_000 });
const prisma = createPrismaClient(server.databaseUrl, 2);
// The lowest privilege that may send runs and exports.
const ingest = await createApiKey(prisma, { name: "bench-hostile ingest", scopes: ["ingest"] });
await prisma.$disconnect();
const ctx: Context = { baseUrl: server.baseUrl, adminKey: ADMIN_KEY, ingestKey: ingest.secret, sql: server.sql, quick: QUICK };
const probe = stallProbe(server.baseUrl);

type Row = { name: string; window: Window; survived: boolean; checks: Check[]; load: number };
const rows: Row[] = [];
try {
  for (const c of classes) {
    console.log(`\n=== ${c.name}: ${c.what}`);
    const run = await c.prepare(ctx);
    await sleep(1000);
    const pid = server.pid;
    const outputBefore = server.output().length;
    probe.start(pid);
    let checks: Check[];
    try {
      checks = await run();
    } catch (e) {
      checks = [{ name: "the class ran to its end", ok: false, figure: (e as Error).message.slice(0, 300) }];
    }
    const window = await probe.stop();
    const survived = alive(pid) && (await healthy(server.baseUrl));
    if (!survived) {
      console.log(`server ${pid} died; its last output:\n${server.output().slice(outputBefore).split("\n").slice(-15).join("\n")}`);
      await server.restart();
    }
    const row = { name: c.name, window, survived, checks, load: loadavg()[0] };
    rows.push(row);
    const v = new Verdicts();
    verdicts(v, row);
  }
} finally {
  await probe.close();
  await server.stop();
}

console.log(`\n| class | longest /api/health stall (main thread's CPU in it) | peak RSS | survived | checks | verdict |\n|---|---|---|---|---|---|`);
let failed = false;
for (const r of rows) {
  const ok = pass(r);
  failed ||= !ok;
  console.log(`| ${r.name} | ${r.window.stallMs.toFixed(0)} ms (${r.window.stallCpuMs} ms; ${r.window.probes} probes, ${r.window.failed} failed, load ${r.load.toFixed(1)}) | ${mib(r.window.peakKb)} | ${r.survived ? "yes" : "**no**"} | ${r.checks.filter((c) => c.ok).length} of ${r.checks.length} | ${ok ? "PASS" : "**FAIL**"} |`);
}
process.exit(failed ? 1 : 0);

function pass(r: Row) {
  return r.window.stallMs <= STALL_LIMIT_MS && r.window.peakKb < RSS_LIMIT_KB && r.survived && r.checks.every((c) => c.ok);
}

function verdicts(v: Verdicts, r: Row) {
  v.check(`longest /api/health stall ≤ ${STALL_LIMIT_MS} ms`, r.window.stallMs <= STALL_LIMIT_MS, `${r.window.stallMs.toFixed(0)} ms (server main thread's CPU in it: ${r.window.stallCpuMs} ms) over ${r.window.probes} probes (${r.window.failed} failed; load average ${r.load.toFixed(1)})`);
  v.check("peak RSS of the server's process tree < 1 GiB", r.window.peakKb < RSS_LIMIT_KB, mib(r.window.peakKb));
  v.check("the server survived", r.survived, r.survived ? "yes" : "no: started again for the next class");
  for (const c of r.checks) v.check(c.name, c.ok, c.figure);
}

function alive(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z";
  } catch {
    return false;
  }
}

async function healthy(baseUrl: string): Promise<boolean> {
  const r = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(30_000) }).catch(() => null);
  return r?.status === 200;
}
