// `npm test [-- suite …]`: every check the project has, in order, each with a header and its
// duration, then a per-suite table and one closing line `N passed, M failed` (the summary CI
// and humans look for). Exits non-zero on any failure.
//
// Suites: typecheck, lint (eslint, warnings fail it), unit, sdk (packages/sdk's build), build,
// pglite, postgres, e2e. Aliases: integration = pglite + postgres, browser = e2e. With no
// arguments all run; postgres only when TEST_DATABASE_URL is set or a server answers on
// 127.0.0.1:5432. Unit and sdk run beside the build; typecheck, lint, pglite and e2e start when the build is done, postgres when e2e is (each
// suite's output printed whole as it ends, when suites overlap). When PostgreSQL runs the
// integration files, PGlite runs only the engine-sensitive ones (ENGINE_SENSITIVE in vitest.integration.config.ts). Files that need
// several processes on one database (POSTGRES_ONLY there) run only in the postgres suite: the
// config leaves them out whenever PROCTOR_TEST_DB is not postgres, as it is for the pglite suite.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import net from "node:net";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import pg from "pg";

const root = path.resolve(import.meta.dirname, "..");
const SUITES = ["typecheck", "lint", "unit", "sdk", "build", "pglite", "postgres", "e2e"] as const;
type Suite = (typeof SUITES)[number];
const ALIASES: Record<string, Suite[]> = { integration: ["pglite", "postgres"], browser: ["e2e"] };
const DEBIAN_CHROMIUM = "/usr/bin/chromium";
/** playwright.config.ts honours the same override. */
const CHROMIUM = process.env.PROCTOR_CHROMIUM || DEBIAN_CHROMIUM;

/**
 * `failures`: what failed, a line each, repeated after the table (CI keeps only the log's tail);
 * `flaky`: what failed once and passed on its retry (integration and browser tests get one), listed the same way.
 */
type Result = { suite: Suite; passed: number; failed: number; ms: number; note?: string; failures?: string[]; flaky?: string[] };

const distDir = process.env.PROCTOR_DIST_DIR || ".next";
const env: NodeJS.ProcessEnv = {
  ...process.env,
  PATH: `${path.join(root, "node_modules/.bin")}${path.delimiter}${process.env.PATH ?? ""}`,
  NEXT_TELEMETRY_DISABLED: "1",
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1",
};

/** Ends the run before any suite runs, with a message saying what to do. */
class Stop extends Error {
  constructor(readonly suite: Suite, message: string) {
    super(message);
  }
}

const selected = parseSelection(process.argv.slice(2));
const results: Result[] = [];
const scratch = mkdtempSync(path.join(tmpdir(), "proctor-test-run-"));
try {
  await main();
} catch (e) {
  if (!(e instanceof Stop)) throw e;
  console.error(`\n${e.message}`);
  results.push({ suite: e.suite, passed: 0, failed: 1, ms: 0, note: "stopped before running any suite" });
  printSummary();
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

async function main() {
  const e2eSpecs = selected.has("e2e") ? listE2eSpecs() : [];
  // Fail fast: a missing browser should not surface after a ten-minute run.
  if (e2eSpecs.length) ensureChromium();

  const postgres = selected.has("postgres") ? await postgresAvailability() : null;
  const needsBuild = selected.has("pglite") || (postgres?.ok ?? false) || e2eSpecs.length > 0;
  const haveBuild = existsSync(path.join(root, distDir, "BUILD_ID"));

  const first: Step[] = [];
  if (selected.has("typecheck")) first.push(["typecheck", "tsc --noEmit", (log) => runCheck(["tsc", "--noEmit"], {}, log)]);
  // The cache (by content: a fresh clone's files all look new) lints only what changed since the last run.
  if (selected.has("lint")) first.push(["lint", "eslint", (log) => runCheck(["eslint", ".", "--max-warnings", "0", "--cache", "--cache-strategy", "content", "--cache-location", "node_modules/.cache/eslint/"], {}, log)]);
  if (selected.has("unit")) first.push(["unit", "vitest run", (log) => runVitest("unit", ["run", "--passWithNoTests"], {}, log)]);
  // The root typecheck covers the SDK's sources; this emits the package as published (dist/).
  if (selected.has("sdk")) first.push(["sdk", "tsc -p packages/sdk", (log) => runCheck(["tsc", "-p", "packages/sdk"], {}, log)]);
  if (selected.has("build") || (needsBuild && !haveBuild)) {
    first.push(["build", `next build → ${distDir}`, (log) => runCheck(["next", "build"], { DATABASE_URL: "" }, log)]);
  } else if (needsBuild) {
    console.log(`\n(using the existing build in ${distDir}; add \`build\` to rebuild)`);
  }
  // Each suite starts as soon as what it needs is done, and suites that overlap print their
  // output whole when they end. Unit and sdk beside the build; typecheck, lint, PGlite and the
  // browser when the build is done (typecheck and lint need no build, but beside it they doubled
  // its time, and the build is on the path to the end: build, browser, PostgreSQL); PostgreSQL
  // when the browser is done (beside PGlite's tail). On 2 cores the CPU is the limit, and this
  // order is the fastest of those tried: running the three database suites at once, or PGlite
  // with two workers, takes longer (the whole-run timings: docs/benchmarks.md#npm-test-suite-order).
  const build = first.find(([suite]) => suite === "build");
  const afterBuild = build ? first.filter(([suite]) => suite === "typecheck" || suite === "lint") : [];
  const running: Promise<void>[] = [];
  const overlapping = first.length + (["pglite", "e2e", "postgres"] as const).filter((s) => selected.has(s)).length > 1;
  const start = ([suite, title, body]: Step) => step(suite, title, body, overlapping);
  running.push(...first.filter((s) => s !== build && !afterBuild.includes(s)).map(start));
  if (build) await start(build);
  running.push(...afterBuild.map(start));
  const buildFailed = results.some((r) => r.suite === "build" && r.failed > 0);

  const integration = (suite: Suite, db: string, files: "engine" | "all", workers: string): Step => [
    suite,
    `integration on ${db}${files === "engine" ? ", engine-sensitive files" : ""}`,
    (log) => runVitest(suite, ["run", "-c", "vitest.integration.config.ts"], { PROCTOR_TEST_DB: suite, PROCTOR_TEST_FILES: files, PROCTOR_TEST_WORKERS: workers }, log),
  ];
  let pglite: Step | null = null;
  let e2e: Step | null = null;
  let postgresSuite: Step | null = null;
  if (selected.has("pglite")) {
    if (buildFailed) skip("pglite", "not run: the build failed");
    else pglite = integration("pglite", "PGlite", postgres?.ok ? "engine" : "all", postgres?.ok ? "1" : process.env.PROCTOR_TEST_WORKERS || "2");
  }
  if (selected.has("e2e")) {
    if (!e2eSpecs.length) skip("e2e", "no browser specs in tests/e2e yet");
    else if (buildFailed) skip("e2e", "not run: the build failed");
    else {
      // The browser flows' console on PostgreSQL when the run has it: a lighter server beside the
      // PGlite suite than the embedded engine (which that suite covers).
      const db = postgres?.ok ? "postgres" : "pglite";
      e2e = ["e2e", `playwright test (${e2eSpecs.length} spec files, console on ${db})`, (log) => runPlaywright(db, log)];
    }
  }
  if (postgres) {
    if (!postgres.ok) {
      if (postgres.required) results.push({ suite: "postgres", passed: 0, failed: 1, ms: 0, note: postgres.why });
      else skip("postgres", postgres.why);
    } else if (buildFailed) skip("postgres", "not run: the build failed");
    else postgresSuite = integration("postgres", `PostgreSQL (${postgres.where})`, "all", process.env.PROCTOR_TEST_WORKERS || "2");
  }
  const browser = e2e ? start(e2e) : Promise.resolve();
  running.push(browser);
  if (pglite) running.push(start(pglite));
  if (postgresSuite) running.push(browser.then(() => start(postgresSuite)));
  await Promise.all(running);

  printSummary();
}

function parseSelection(args: string[]): Set<Suite> {
  if (!args.length) return new Set(SUITES);
  const out = new Set<Suite>();
  for (const a of args) {
    const names = ALIASES[a] ?? ((SUITES as readonly string[]).includes(a) ? [a as Suite] : null);
    if (!names) {
      console.error(`unknown suite "${a}". Suites: ${SUITES.join(", ")}; aliases: ${Object.keys(ALIASES).join(", ")}`);
      process.exit(2);
    }
    names.forEach((n) => out.add(n));
  }
  return out;
}

/** Output of a step run beside others, printed in one piece when it ends; null prints as it comes. */
type Log = string[] | null;
type Outcome = Omit<Result, "suite" | "ms">;
type Step = [Suite, string, (log: Log) => Promise<Outcome>];

async function step(suite: Suite, title: string, body: (log: Log) => Promise<Outcome>, buffered = false) {
  const log: Log = buffered ? [] : null;
  if (!log) console.log(`\n━━ ${suite}: ${title} ━━`);
  const started = Date.now();
  const r = await body(log);
  const ms = Date.now() - started;
  results.push({ suite, ms, ...r });
  if (log) process.stdout.write(`\n━━ ${suite}: ${title} ━━\n${log.join("")}`);
  console.log(`━━ ${suite}: ${r.failed ? "FAILED" : "ok"} in ${seconds(ms)} ━━`);
}

function skip(suite: Suite, note: string) {
  console.log(`\n━━ ${suite}: skipped (${note}) ━━`);
  results.push({ suite, passed: 0, failed: 0, ms: 0, note: `skipped: ${note}` });
}

/** Runs a command with inherited output (or into `log`); resolves to its exit code. */
function run(argv: string[], extraEnv: Record<string, string> = {}, log: Log = null): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), {
      cwd: root,
      env: { ...env, ...extraEnv, ...(log ? { FORCE_COLOR: "1" } : {}) },
      stdio: ["ignore", log ? "pipe" : "inherit", log ? "pipe" : "inherit"],
    });
    if (log) {
      child.stdout!.on("data", (d) => log.push(String(d)));
      child.stderr!.on("data", (d) => log.push(String(d)));
    }
    child.on("error", (e) => {
      const message = `could not start ${argv[0]}: ${e.message}\n`;
      if (log) log.push(message);
      else console.error(message.trimEnd());
      resolve(127);
    });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

/** A step that is one check (typecheck, build): one pass or one failure. */
async function runCheck(argv: string[], extraEnv: Record<string, string> = {}, log: Log = null) {
  const code = await run(argv, extraEnv, log);
  return { passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1 };
}

type VitestJson = {
  numPassedTests: number;
  numFailedTests: number;
  testResults: {
    status: string;
    name: string;
    message?: string;
    assertionResults: { status: string; fullName: string; failureMessages?: string[] }[];
  }[];
};

/** A failure's first line, short enough for a summary. */
function firstLine(text = ""): string {
  return (stripVTControlCharacters(text).split("\n").find((l) => l.trim()) ?? "").trim().slice(0, 200);
}

async function runVitest(suite: Suite, args: string[], extraEnv: Record<string, string>, log: Log) {
  const out = path.join(scratch, `${suite}.json`);
  const code = await run(["vitest", ...args, "--reporter=default", "--reporter=json", `--outputFile.json=${out}`], extraEnv, log);
  if (!existsSync(out)) return { passed: 0, failed: 1, note: `vitest exited ${code} without a report` };
  const report = JSON.parse(readFileSync(out, "utf8")) as VitestJson;
  // A file that fails to load has no test results but is a failure all the same.
  const brokenFiles = report.testResults.filter((f) => f.status === "failed" && f.assertionResults.length === 0).length;
  let failed = report.numFailedTests + brokenFiles;
  // A test that passed with failure messages passed on its retry; a failed file without a failed
  // test failed outside them (loading, a hook).
  const failures: string[] = [];
  const flaky: string[] = [];
  for (const f of report.testResults) {
    const file = path.relative(root, f.name);
    const line = (a: { fullName: string; failureMessages?: string[] }) => `${file} › ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`;
    const failedTests = f.assertionResults.filter((a) => a.status === "failed");
    if (f.status === "failed" && failedTests.length === 0) failures.push(`${file}: ${firstLine(f.message)}`);
    failures.push(...failedTests.map(line));
    flaky.push(...f.assertionResults.filter((a) => a.status === "passed" && (a.failureMessages?.length ?? 0) > 0).map(line));
  }
  const notes = flaky.length ? [`${flaky.length} flaky (passed on retry)`] : [];
  if (code !== 0 && failed === 0) {
    failed = 1;
    notes.push(`vitest exited ${code} (unhandled errors)`);
    failures.push(`an error outside any test: see "Unhandled Errors" in this suite's output (it names the file it came from)`);
  }
  return { passed: report.numPassedTests, failed, note: notes.join("; ") || undefined, failures, flaky };
}

type PlaywrightSuite = {
  title: string;
  file?: string;
  specs?: { title: string; tests: { status: string; results: { error?: { message?: string } }[] }[] }[];
  suites?: PlaywrightSuite[];
};
type PlaywrightJson = {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  errors?: { message?: string }[];
  suites?: PlaywrightSuite[];
};

/** The specs whose tests ended with `status` ("unexpected": failed every try; "flaky"), with their first error's first line. */
function playwrightTests(status: string, suites: PlaywrightSuite[] = [], file = ""): string[] {
  return suites.flatMap((s) => [
    ...(s.specs ?? []).flatMap((spec) =>
      spec.tests
        .filter((t) => t.status === status)
        .map((t) => `tests/e2e/${s.file ?? file} › ${spec.title}: ${firstLine(t.results.find((r) => r.error)?.error?.message)}`),
    ),
    ...playwrightTests(status, s.suites, s.file ?? file),
  ]);
}

async function runPlaywright(db: "postgres" | "pglite", log: Log) {
  const out = path.join(scratch, "e2e.json");
  const code = await run(["playwright", "test", "--reporter=line,json"], { PLAYWRIGHT_JSON_OUTPUT_FILE: out, PROCTOR_TEST_DB: db }, log);
  if (!existsSync(out)) return { passed: 0, failed: 1, note: `playwright exited ${code} without a report` };
  const { stats, errors = [], suites } = JSON.parse(readFileSync(out, "utf8")) as PlaywrightJson;
  const failures = [...playwrightTests("unexpected", suites), ...errors.map((e) => `playwright: ${firstLine(e.message)}`)];
  let failed = stats.unexpected + errors.length;
  const notes = [stats.flaky ? `${stats.flaky} flaky (passed on retry)` : "", code !== 0 && failed === 0 ? `playwright exited ${code}` : ""];
  if (code !== 0 && failed === 0) failed = 1;
  return { passed: stats.expected + stats.flaky, failed, note: notes.filter(Boolean).join("; ") || undefined, failures, flaky: playwrightTests("flaky", suites) };
}

function listE2eSpecs(): string[] {
  const dir = path.join(root, "tests/e2e");
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => /\.(spec|test)\.[cm]?[jt]sx?$/.test(f));
}

/** Debian's Chromium drives the browser tests (never Playwright's download). */
function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  if (CHROMIUM !== DEBIAN_CHROMIUM) throw new Stop("e2e", `PROCTOR_CHROMIUM points at ${CHROMIUM}, which does not exist.`);
  if (process.getuid?.() !== 0) {
    throw new Stop(
      "e2e",
      `Chromium is missing (${CHROMIUM}); the browser tests need Debian's package.\n` +
        "Install it with:  sudo apt-get update && sudo apt-get install -y chromium\n" +
        "or run the other suites only:  npm test -- typecheck unit build integration",
    );
  }
  console.log(`\n━━ installing Chromium (${CHROMIUM} is missing) ━━`);
  const aptEnv = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const argv of [["apt-get", "update"], ["apt-get", "install", "-y", "--no-install-recommends", "chromium"]]) {
    const r = spawnSync(argv[0], argv.slice(1), { stdio: "inherit", env: aptEnv });
    if (r.status !== 0) throw new Stop("e2e", `\`${argv.join(" ")}\` failed; install Chromium by hand (apt-get install -y chromium) and re-run.`);
  }
}

type PostgresAvailability = { ok: true; where: string } | { ok: false; required: boolean; why: string };

/** Explicit TEST_DATABASE_URL must work; otherwise PostgreSQL is used when one answers locally. */
async function postgresAvailability(): Promise<PostgresAvailability> {
  const explicit = process.env.TEST_DATABASE_URL;
  if (!explicit && !(await answers("127.0.0.1", 5432))) {
    return { ok: false, required: false, why: "no TEST_DATABASE_URL and nothing answers on 127.0.0.1:5432" };
  }
  const url = explicit ?? "postgresql://postgres@127.0.0.1:5432/test";
  const where = new URL(url).host + new URL(url).pathname;
  try {
    await probe(url);
    return { ok: true, where };
  } catch (e) {
    // The local default: create the `test` database the integration helper expects.
    if (!explicit && (e as { code?: string }).code === "3D000") {
      try {
        await probe("postgresql://postgres@127.0.0.1:5432/postgres", "CREATE DATABASE test");
        return { ok: true, where };
      } catch {
        /* reported below */
      }
    }
    return { ok: false, required: true, why: `PostgreSQL at ${where} refused: ${(e as Error).message}` };
  }
}

async function probe(url: string, sql = "SELECT 1") {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function answers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 1000 });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("timeout", () => (socket.destroy(), resolve(false)));
    socket.once("error", () => resolve(false));
  });
}

function printSummary() {
  console.log("\n suite       passed  failed  time     note");
  // Steps run side by side finish in any order; the table keeps the suites' order.
  results.sort((a, b) => SUITES.indexOf(a.suite) - SUITES.indexOf(b.suite));
  for (const r of results) {
    console.log(
      ` ${r.suite.padEnd(10)}  ${String(r.passed).padStart(6)}  ${String(r.failed).padStart(6)}  ${seconds(r.ms).padStart(7)}  ${r.note ?? ""}`,
    );
  }
  console.log(` ${"sum".padEnd(10)}  ${"".padStart(6)}  ${"".padStart(6)}  ${seconds(results.reduce((n, r) => n + r.ms, 0)).padStart(7)}  (of the suites' times, which overlap)`);
  console.log(` ${"wall".padEnd(10)}  ${"".padStart(6)}  ${"".padStart(6)}  ${seconds(performance.now()).padStart(7)}  (this run, from start to end)`);
  const passed = results.reduce((n, r) => n + r.passed, 0);
  const failed = results.reduce((n, r) => n + r.failed, 0);
  for (const [title, key] of [["flaky (failed once, passed on retry)", "flaky"], ["failed", "failures"]] as const) {
    const lines = results.flatMap((r) => (r[key] ?? []).map((f) => ` ${r.suite}: ${f}`));
    if (lines.length) console.log(`\n${title}:\n${lines.join("\n")}`);
  }
  console.log(`\n${passed} passed, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}
