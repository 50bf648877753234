// `npm run bench:soak`: a mixed load held for 10 minutes (`--minutes N`; 1 with --quick)
// against a fleet on one new PostgreSQL database (docs/deploy.md): two web processes with
// PROCTOR_WORKER=0 on two ports sharing NEXTAUTH_SECRET, and two `npm run worker` processes.
// Each kind of request fires at a fixed rate, alternating between the two web processes:
// single-run ingestion, 20-run batches, /context calls, console page loads with a session
// signed in on the first process, and console actions (saving an agent's learning settings)
// over HTTP as the browser sends them. Prints per-minute throughput, errors (must be 0), p50/p99
// per kind beside a ceiling, each process's RSS per minute, and a flatness verdict per process:
// the least-squares slope of its RSS after the first minute (the warm-up) must stay under
// RSS_SLOPE_CEILING. A request still unanswered when its kind already has MAX_IN_FLIGHT open is
// not sent and counted as dropped: the fleet did not keep the rate (FAIL).
// Knobs (environment): BENCH_SOAK_SCALE (1: multiplies every rate).
// The 10-minute run at full rates needs a machine of its own: on one shared with other builds
// the queues grow and the verdict measures that load, not Proctor (docs/benchmarks.md#soak).
import { randomBytes } from "node:crypto";
import { callAction } from "../../tests/helpers/actions.ts";
import { login, type Caller } from "../../tests/helpers/http.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, createPostgresDatabase, launchTestServer, type TestServer } from "../../tests/helpers/server.ts";
import { startWorker, type Worker } from "../../tests/helpers/worker.ts";
import { ensureBuild, httpClient, largestDescendant, memoryOf, percentile, QUICK, RSS_LIMIT_KB, sleep, Verdicts, type HttpClient } from "./measure.ts";

const minutesArg = process.argv.indexOf("--minutes");
const MINUTES = minutesArg > 0 ? Number(process.argv[minutesArg + 1]) : QUICK ? 1 : 10;
if (!Number.isInteger(MINUTES) || MINUTES < 1) throw new Error("--minutes takes a whole number ≥ 1");
const SCALE = Number(process.env.BENCH_SOAK_SCALE ?? 1);
const BATCH_SIZE = 20;
const AGENTS = ["soak-a", "soak-b", "soak-c"];
const ACCOUNTS = 40;
const MAX_IN_FLIGHT = 32;
/** Growth allowed after the warm-up, per process: a leak of a few objects per request shows well above it over 10 minutes. */
const RSS_SLOPE_CEILING_MIB_PER_MIN = 2;
const WARM_UP_MS = Math.min(60_000, (MINUTES * 60_000) / 3);
const SAMPLE_MS = 5_000;
/** Start-up of a web process (migrations, Next.js) on a machine under other load. */
const START_TIMEOUT_MS = 600_000;

type Kind = "ingest" | "batch" | "context" | "page" | "action";
/** Requests per second (before BENCH_SOAK_SCALE) and the p99 ceiling in ms (a loaded 2-core machine running all six processes). */
const KINDS: Record<Kind, { rate: number; p99Ms: number }> = {
  ingest: { rate: 8, p99Ms: 1500 },
  batch: { rate: 0.5, p99Ms: 3000 },
  context: { rate: 8, p99Ms: 1500 },
  page: { rate: 1, p99Ms: 3000 },
  action: { rate: 0.25, p99Ms: 3000 },
};
const KIND_NAMES = Object.keys(KINDS) as Kind[];
const PAGES = ["/", "/agents", `/agents/${AGENTS[0]}`, `/workflows?agent=${AGENTS[1]}`, "/workflows/runs", "/skills", "/traces", "/audit"];


/** Fires `send` `rate` times a second from `started` for `durationMs`, whatever the answers' pace. */
async function drive(kind: Kind, rate: number, started: number, durationMs: number, stats: Stats, send: (i: number) => Promise<string | null>) {
  const period = 1000 / rate;
  const open = new Set<Promise<void>>();
  for (let i = 0; ; i++) {
    const due = started + i * period;
    if (due - started >= durationMs) break;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const minute = () => Math.floor((performance.now() - started) / 60_000);
    if (open.size >= MAX_IN_FLIGHT) {
      stats.dropped(kind, minute());
      continue;
    }
    const t0 = performance.now();
    // Counted in the minute it was answered in: a minute's line is printed as it ends.
    const p: Promise<void> = send(i)
      .catch((e: Error) => e.message)
      .then((error) => stats.record(kind, minute(), performance.now() - t0, error))
      .finally(() => open.delete(p));
    open.add(p);
  }
  await Promise.all(open);
}

/** One request of each kind; the answer's error in words, or null. Even i goes to web 1, odd to web 2. */
function requestSenders(clients: HttpClient[], callers: Caller[]): Record<Kind, (i: number) => Promise<string | null>> {
  const expect = (status: number, wanted: number, body: string) => (status === wanted ? null : `HTTP ${status}: ${body.slice(0, 160)}`);
  return {
    ingest: async (i) => {
      const r = await clients[i % 2].send("POST", `/api/v1/agents/${AGENTS[i % AGENTS.length]}/workflows`, JSON.stringify(run(`s${i}`)));
      return expect(r.status, 201, r.body);
    },
    batch: async (i) => {
      const body = JSON.stringify({ workflows: Array.from({ length: BATCH_SIZE }, (_, j) => run(`b${i}-${j}`)) });
      const r = await clients[i % 2].send("POST", `/api/v1/agents/${AGENTS[i % AGENTS.length]}/workflows/batch`, body);
      const refused = r.status === 207 ? (JSON.parse(r.body) as { results: { status: number }[] }).results.filter((x) => x.status !== 201) : [];
      return expect(r.status, 207, r.body) ?? (refused.length ? `${refused.length} items refused: ${r.body.slice(0, 160)}` : null);
    },
    context: async (i) => {
      const body = JSON.stringify({ query: `Refund order ${i % 500}`, user_id: account(i), provider: "openai", system_prompt: "You are a support agent." });
      const r = await clients[i % 2].send("POST", `/api/v1/agents/${AGENTS[i % AGENTS.length]}/context`, body);
      return expect(r.status, 200, r.body);
    },
    page: async (i) => {
      const res = await fetch(webs[i % 2].baseUrl + PAGES[i % PAGES.length], { redirect: "manual", headers: callers[i % 2].headers });
      const text = await res.text();
      return expect(res.status, 200, text);
    },
    action: async (i) => {
      const learning = { promotion_every_n_runs: 100, min_executions: 5 + (i % 2) };
      const r = await callAction(webs[i % 2], callers[i % 2], "lib/actions/learning.ts#saveLearningSettings", { agent_id: AGENTS[i % AGENTS.length], learning });
      return r.kind === "ok" ? null : `action ${r.kind} (HTTP ${r.httpStatus}) ${r.error?.message ?? r.text.slice(0, 160)}`;
    },
  };
}

const TOOLS = [
  { name: "lookup_order", description: "Find an order" },
  { name: "issue_refund", description: "Refund an order" },
  { name: "send_email", description: "Email a customer" },
];
const account = (i: number) => `acct-${i % ACCOUNTS}`;
const nonce = randomBytes(4).toString("hex");

/** A run of one of three tool paths, for one of ACCOUNTS accounts, mostly successful. */
function run(id: string) {
  const n = Number.parseInt(id.replace(/\D/g, "").slice(-6) || "0", 10);
  const order = `ORD-${n % 1000}`;
  const lookup = { tool: "lookup_order", arguments: { order_id: order }, result: { status: "paid" } };
  const second = n % 3 === 0
    ? { tool: "send_email", arguments: { order_id: order, template: "status" }, result: { sent: true } }
    : { tool: "issue_refund", arguments: { order_id: order, amount: 12.5 }, result: { accepted: true } };
  return {
    workflow_id: `${nonce}-${id}`,
    user_id: account(n),
    thread_id: `t-${n % 97}`,
    query: n % 3 === 0 ? `Where is order ${order}?` : `Refund order ${order}`,
    steps: [lookup, second],
    outcome: n % 10 === 0 ? "failure" : "success",
  };
}

class Stats {
  latencies: Record<Kind, number[]> = { ingest: [], batch: [], context: [], page: [], action: [] };
  samples: Partial<Record<Kind, string>> = {};
  printed = 0;
  private perMinute: Record<Kind, { ok: number; errors: number; dropped: number; ms: number[] }>[];

  constructor(minutes: number) {
    this.perMinute = Array.from({ length: minutes + 1 }, () =>
      Object.fromEntries(KIND_NAMES.map((k) => [k, { ok: 0, errors: 0, dropped: 0, ms: [] as number[] }])) as Stats["perMinute"][number]);
  }
  record(kind: Kind, minute: number, ms: number, error: string | null) {
    const m = this.perMinute[Math.min(minute, this.perMinute.length - 1)][kind];
    if (error) {
      m.errors++;
      this.samples[kind] ??= error;
      return;
    }
    m.ok++;
    m.ms.push(ms);
    this.latencies[kind].push(ms);
  }
  dropped(kind: Kind, minute: number) {
    this.perMinute[Math.min(minute, this.perMinute.length - 1)][kind].dropped++;
  }
  totals(kind: Kind) {
    return this.perMinute.reduce((t, m) => ({ errors: t.errors + m[kind].errors, dropped: t.dropped + m[kind].dropped }), { errors: 0, dropped: 0 });
  }
  printHeader(names: string[]) {
    console.log(`\nper minute: ok/s per kind (p50/p99 ms), errors, dropped, RSS MiB of ${names.join(", ")}`);
  }
  /** The minute that just ended (1-based); answers after the last minute count in it. */
  printMinute(minute: number, rssKb: number[]) {
    const m = this.perMinute[minute - 1];
    if (!m || minute <= this.printed) return;
    this.printed = minute;
    const cells = KIND_NAMES.map((k) => {
      const ms = [...m[k].ms].sort((a, b) => a - b);
      return `${k} ${(m[k].ok / 60).toFixed(1)}/s (${ms.length ? `${percentile(ms, 0.5).toFixed(0)}/${percentile(ms, 0.99).toFixed(0)}` : "-"})`;
    });
    const errors = KIND_NAMES.reduce((n, k) => n + m[k].errors, 0);
    const dropped = KIND_NAMES.reduce((n, k) => n + m[k].dropped, 0);
    console.log(`  min ${String(minute).padStart(2)}: ${cells.join("  ")}  errors ${errors}  dropped ${dropped}  RSS ${rssKb.map(mb).join("/")}`);
  }
}

const mb = (kb: number) => (kb / 1024).toFixed(0);

/** Least-squares slope of RSS (MiB) over time (minutes). */
function slopeMiBPerMinute(samples: { minutes: number; kb: number }[]): number {
  if (samples.length < 2) return 0;
  const n = samples.length;
  const mx = samples.reduce((a, s) => a + s.minutes, 0) / n;
  const my = samples.reduce((a, s) => a + s.kb / 1024, 0) / n;
  const sxy = samples.reduce((a, s) => a + (s.minutes - mx) * (s.kb / 1024 - my), 0);
  const sxx = samples.reduce((a, s) => a + (s.minutes - mx) ** 2, 0);
  return sxx ? sxy / sxx : 0;
}

ensureBuild();
const database = await createPostgresDatabase();
const fleetEnv = { PROCTOR_WORKER: "0", NEXTAUTH_SECRET: randomBytes(32).toString("base64url") };
const webs: TestServer[] = [];
const workers: Worker[] = [];
let failed = true;
try {
  console.log(`soak: ${MINUTES} min against 2 web processes (PROCTOR_WORKER=0) + 2 workers on one PostgreSQL database`);
  // The first start migrates and creates the admin; the rest then start side by side.
  webs.push(await launchTestServer({ databaseUrl: database.url, env: fleetEnv, startTimeoutMs: START_TIMEOUT_MS }));
  webs.push(await launchTestServer({ databaseUrl: database.url, env: fleetEnv, startTimeoutMs: START_TIMEOUT_MS }));
  workers.push(startWorker(webs[0]), startWorker(webs[0]));
  const clients = webs.map((w) => httpClient(w.baseUrl, MAX_IN_FLIGHT * KIND_NAMES.length));
  for (const agent of AGENTS) {
    const r = await clients[0].send("PUT", `/api/v1/agents/${agent}`, JSON.stringify({ name: `Soak ${agent}`, tools: TOOLS, learning: { promotion_every_n_runs: 100 } }));
    if (r.status !== 200) throw new Error(`declaring ${agent}: ${r.status} ${r.body}`);
  }
  // One session, signed in on the first process, used on both (each with its own Origin).
  const session = await login(webs[0].baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  const callers: Caller[] = webs.map((w) => ({ headers: { cookie: session.headers.cookie, origin: w.baseUrl } }));
  const processes = [
    ...webs.map((w, i) => ({ name: `web ${i + 1}`, pid: largestDescendant(w.pid) })),
    ...workers.map((w, i) => ({ name: `worker ${i + 1}`, pid: w.child.pid! })),
  ];

  const send = requestSenders(clients, callers);
  const stats = new Stats(MINUTES);
  const rss = processes.map(() => [] as { minutes: number; kb: number }[]);
  const started = performance.now();
  const sampler = setInterval(() => {
    const at = (performance.now() - started) / 60_000;
    processes.forEach((p, i) => rss[i].push({ minutes: at, kb: memoryOf(p.pid)?.rssKb ?? 0 }));
  }, SAMPLE_MS);
  const minuteTimer = setInterval(() => stats.printMinute(Math.round((performance.now() - started) / 60_000), processes.map((p) => memoryOf(p.pid)?.rssKb ?? 0)), 60_000);
  console.log(`rates per second: ${KIND_NAMES.map((k) => `${k} ${(KINDS[k].rate * SCALE).toFixed(2)}`).join(", ")} (batches of ${BATCH_SIZE} runs)`);
  stats.printHeader(processes.map((p) => p.name));
  await Promise.all(KIND_NAMES.map((kind) => drive(kind, KINDS[kind].rate * SCALE, started, MINUTES * 60_000, stats, send[kind])));
  clearInterval(sampler);
  clearInterval(minuteTimer);
  if (stats.printed < MINUTES) stats.printMinute(MINUTES, processes.map((p) => memoryOf(p.pid)?.rssKb ?? 0));
  clients.forEach((c) => c.close());

  const verdicts = new Verdicts();
  console.log("\nper kind over the whole run:");
  for (const kind of KIND_NAMES) {
    const all = stats.latencies[kind].sort((a, b) => a - b);
    const p50 = all.length ? percentile(all, 0.5) : NaN;
    const p99 = all.length ? percentile(all, 0.99) : NaN;
    const { errors, dropped } = stats.totals(kind);
    console.log(`  ${kind.padEnd(8)} ${String(all.length).padStart(6)} ok  p50 ${p50.toFixed(0).padStart(5)} ms  p99 ${p99.toFixed(0).padStart(5)} ms`);
    verdicts.check(`${kind}: 0 errors`, errors === 0, `${errors} errors${stats.samples[kind] ? ` (first: ${stats.samples[kind]})` : ""}`);
    verdicts.check(`${kind}: every request sent at the rate (≤ ${MAX_IN_FLIGHT} in flight)`, dropped === 0, `${dropped} dropped`);
    verdicts.check(`${kind}: p99 ≤ ${KINDS[kind].p99Ms} ms`, p99 <= KINDS[kind].p99Ms, `${p99.toFixed(0)} ms`);
  }
  const jobs = await webs[0].sql.query<{ status: string; n: number }>("SELECT status, count(*)::int AS n FROM jobs GROUP BY status ORDER BY status");
  console.log(`\njobs by status: ${jobs.rows.map((r) => `${r.status} ${r.n}`).join(", ") || "none"}`);
  const dead = jobs.rows.find((r) => r.status === "DEAD")?.n ?? 0;
  verdicts.check("no background job dead", dead === 0, `${dead} dead`);
  console.log(`\nRSS after the ${(WARM_UP_MS / 1000).toFixed(0)} s warm-up (least-squares slope over ${SAMPLE_MS / 1000}-s samples):`);
  processes.forEach((p, i) => {
    const after = rss[i].filter((s) => s.minutes * 60_000 >= WARM_UP_MS);
    const slope = slopeMiBPerMinute(after);
    const peak = Math.max(...rss[i].map((s) => s.kb));
    verdicts.check(`${p.name}: RSS flat (slope < ${RSS_SLOPE_CEILING_MIB_PER_MIN} MiB/min)`, slope < RSS_SLOPE_CEILING_MIB_PER_MIN,
      `${slope >= 0 ? "+" : ""}${slope.toFixed(2)} MiB/min, ${mb(after[0]?.kb ?? 0)} → ${mb(after.at(-1)?.kb ?? 0)} MiB, peak ${mb(peak)} MiB`);
    verdicts.check(`${p.name}: peak RSS < 1 GiB`, peak < RSS_LIMIT_KB, `${mb(peak)} MiB`);
  });
  // What the processes logged about failures (error kinds and codes only: lib/actions/action.ts).
  const logged = [...webs.map((w) => w.output()), ...workers.map((w) => w.output())].flatMap((o) => o.split("\n").filter((l) => /error|failed/i.test(l)));
  if (logged.length) console.log(`\nprocess log lines about errors (${logged.length}, the first 10):\n${logged.slice(0, 10).map((l) => `  ${l}`).join("\n")}`);
  const exited = workers.filter((w) => w.child.exitCode !== null);
  verdicts.check("both workers still running", exited.length === 0, `${exited.length} exited`);
  failed = verdicts.failed;
  console.log(`\n${failed ? "FAIL" : "PASS"}`);
} finally {
  await Promise.all(workers.map((w) => w.stop()));
  for (const w of webs) await w.stop();
  await database.drop();
}
process.exitCode = failed ? 1 : 0;
