// What every HTTP benchmark measures the same way: requests per second and the server's CPU
// per operation (user + system time of the server's process tree, from /proc), next to the
// framework's floor (POST /api/v1/bench/floor: body read, API-key check, rate limit, zod, no
// database) at the same body size and concurrency, in the same run; PASS/FAIL per target; the
// server's resident set (idle, peak, after). CPU per operation survives a noisy machine where rates and latencies don't.
// `--quick` (or BENCH_QUICK=1) shrinks every benchmark to a smoke run of about a minute.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { ADMIN_KEY } from "../../tests/helpers/server.ts";

export const QUICK = process.argv.includes("--quick") || process.env.BENCH_QUICK === "1";

/** The server environment that turns the floor route on. */
export const FLOOR_ENV = { PROCTOR_BENCH_FLOOR: "1" };

export const RSS_LIMIT_KB = 1024 * 1024;

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ: 100 on every Linux build we run). */
const TICKS_PER_SECOND = 100;

function statFields(pid: number, tid?: string): string[] | null {
  try {
    const stat = readFileSync(tid ? `/proc/${pid}/task/${tid}/stat` : `/proc/${pid}/stat`, "utf8");
    // Fields after the parenthesised command name (which may hold spaces); [0] is field 3.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

/** The pids of `rootPid` and its descendants (the launcher spawns the server and the database). */
export function processTree(rootPid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const parent = Number(statFields(Number(name))?.[1]);
    if (parent) children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
  }
  const tree = [rootPid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
  return tree;
}

/**
 * utime + stime of each thread of `pid` in milliseconds, by what the thread is: the main thread,
 * "V8 helpers" (its collector's and compiler's threads), worker threads (the OTLP staging thread),
 * the libuv pool. Where a process's CPU goes, beside cpuMsOfTree's total.
 */
export function cpuMsByThread(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tasks) {
    const f = statFields(pid, tid) ?? [];
    let comm = "";
    try {
      comm = readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim();
    } catch {
      continue;
    }
    const kind = tid === String(pid) ? "main thread" : comm.startsWith("V8") ? "V8 helpers" : comm === "WorkerThread" ? "worker threads" : comm.startsWith("libuv") ? "libuv pool" : "other";
    out.set(kind, (out.get(kind) ?? 0) + ((Number(f[11] ?? 0) + Number(f[12] ?? 0)) * 1000) / TICKS_PER_SECOND);
  }
  return out;
}

/** The CPU per operation of each kind of thread between two cpuMsByThread readings, largest first. */
export function perThread(before: Map<string, number>, after: Map<string, number>, ops: number): string {
  return [...after]
    .map(([kind, ms]) => [kind, (ms - (before.get(kind) ?? 0)) / ops] as const)
    .filter(([, ms]) => ms > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([kind, ms]) => `${kind} ${ms.toFixed(3)}`)
    .join(", ");
}

/** utime + stime of the tree, in milliseconds (a process that exits meanwhile drops out). */
export function cpuMsOfTree(rootPid: number): number {
  let ticks = 0;
  for (const pid of processTree(rootPid)) {
    const f = statFields(pid);
    if (f) ticks += Number(f[11]) + Number(f[12]); // fields 14 (utime) and 15 (stime)
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

export type Memory = { rssKb: number; hwmKb: number };

export function memoryOf(pid: number): Memory | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field: string) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"))?.[1] ?? 0);
    return { rssKb: kb("VmRSS"), hwmKb: kb("VmHWM") };
  } catch {
    return null;
  }
}

/** The process in `rootPid`'s tree with the largest resident set: the server behind a launcher. */
export function largestDescendant(rootPid: number): number {
  const rss = (pid: number) => memoryOf(pid)?.rssKb ?? 0;
  return processTree(rootPid).reduce((best, pid) => (rss(pid) > rss(best) ? pid : best));
}

/** Samples a process's RSS until stopped; the peak seen while load ran. */
export function sampleRss(pid: number, everyMs = 200) {
  let peakKb = 0;
  const timer = setInterval(() => {
    peakKb = Math.max(peakKb, memoryOf(pid)?.rssKb ?? 0);
  }, everyMs);
  return {
    stop(): number {
      clearInterval(timer);
      return Math.max(peakKb, memoryOf(pid)?.rssKb ?? 0);
    },
  };
}

export const mib = (kb: number) => `${(kb / 1024).toFixed(0)} MiB`;

export type Phase = { ops: number; seconds: number; perSecond: number; cpuMsPerOp: number };

/** Runs `work` (which performs `ops` operations) and measures its wall time and the server's CPU. */
export async function measured(serverPid: number, ops: number, work: () => Promise<unknown>): Promise<Phase> {
  const cpuBefore = cpuMsOfTree(serverPid);
  const started = process.hrtime.bigint();
  await work();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpuMs = cpuMsOfTree(serverPid) - cpuBefore;
  return { ops, seconds, perSecond: ops / seconds, cpuMsPerOp: cpuMs / ops };
}

export const describePhase = (name: string, p: Phase, unit = "requests") =>
  `${name}: ${p.ops} ${unit} in ${p.seconds.toFixed(1)} s, ${p.perSecond.toFixed(0)}/s, server CPU ${p.cpuMsPerOp.toFixed(3)} ms per operation`;

export type HttpClient = ReturnType<typeof httpClient>;

/** A keep-alive client, authenticated with the test servers' admin key unless given another. */
export function httpClient(baseUrl: string, sockets: number) {
  // Idle sockets are closed after 4 s, before the server's 5-s keep-alive timeout closes them:
  // reusing one the server is closing at that moment fails the request with ECONNRESET.
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets, timeout: 4_000 });
  const url = new URL(baseUrl);
  return {
    send(method: string, pathname: string, body?: string, key = ADMIN_KEY): Promise<{ status: number; body: string }> {
      return new Promise((resolve, reject) => {
        const headers: Record<string, string | number> = { authorization: `Bearer ${key}` };
        if (body !== undefined) Object.assign(headers, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
        const req = http.request(
          { agent, host: url.hostname, port: url.port, method, path: pathname, headers, timeout: 120_000 },
          (res) => {
            const parts: Buffer[] = [];
            res.on("data", (d: Buffer) => parts.push(d));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString("utf8") }));
            res.on("error", reject);
          },
        );
        req.on("timeout", () => req.destroy(new Error(`${method} ${pathname} timed out`)));
        req.on("error", reject);
        req.end(body);
      });
    },
    close: () => agent.destroy(),
  };
}

/** Runs `work` over items with at most `limit` in flight; the first failure stops the rest. */
export async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * The floor for an operation: each of `bodies` POSTed to the floor route at `concurrency`
 * (the same sizes as the operation's requests), measured like the operation.
 */
export async function floorPhase(client: HttpClient, serverPid: number, bodies: string[], concurrency: number): Promise<Phase> {
  const post = async (body: string) => {
    const r = await client.send("POST", "/api/v1/bench/floor", body);
    if (r.status !== 200) throw new Error(`floor answered ${r.status}: ${r.body.slice(0, 200)} (is PROCTOR_BENCH_FLOOR=1 set?)`);
  };
  await pool(bodies.slice(0, 100), concurrency, post); // warm-up: the route's first load is not the floor
  return measured(serverPid, bodies.length, () => pool(bodies, concurrency, post));
}

/** PASS/FAIL lines per target; `failed` for the exit code. */
export class Verdicts {
  failed = false;
  check(name: string, ok: boolean, figure: string) {
    console.log(`  ${ok ? "PASS" : "FAIL"}  ${name}: ${figure}`);
    if (!ok) this.failed = true;
  }
  /** operation CPU ≤ `factor` × the floor's CPU per request */
  cpuVsFloor(name: string, op: Phase, floor: Phase, factor = 2) {
    const ratio = op.cpuMsPerOp / floor.cpuMsPerOp;
    this.check(`${name}: server CPU ≤ ${factor.toFixed(1)}× the floor's`, ratio <= factor,
      `${op.cpuMsPerOp.toFixed(3)} ms vs floor ${floor.cpuMsPerOp.toFixed(3)} ms per request = ${ratio.toFixed(2)}×`);
  }
  peakRss(peakKb: number) {
    this.check("server peak RSS < 1 GiB", peakKb < RSS_LIMIT_KB, mib(peakKb));
  }
}

export function chunk<T>(items: T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

export function sleep(ms: number) {
  return new Promise((r) => setTimeout(r, ms));
}

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Builds the console when the dist dir has no build (benchmarks run the production server). */
export function ensureBuild() {
  const distDir = process.env.PROCTOR_DIST_DIR || ".next";
  if (existsSync(path.join(ROOT, distDir, "BUILD_ID"))) return;
  console.log(`no production build in ${distDir}; building first…`);
  const r = spawnSync(process.execPath, [path.join(ROOT, "node_modules/next/dist/bin/next"), "build"], {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, DATABASE_URL: "", NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (r.status !== 0) throw new Error("next build failed");
}
