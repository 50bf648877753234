// The real console (scripts/start.ts, the built app) for a test file, on a database holding
// only what start-up wrote: embedded PGlite in a temp dir, or a new database on the PostgreSQL
// server.
//
// In the integration suite a file gets one of the servers kept for the whole run
// (tests/helpers/shared-server.ts) when its `env` is part of that server's (SHARED_SERVERS), its
// database reset first (tests/helpers/database-reset.ts); it may restart it, not kill it. A file
// gets a server of its own when it passes other `env`, `emptyDataDir`, `dataDir` or `dedicated`. Today:
// - learning-llm, persona-llm: a fake LLM's base URL (a server of the test's own);
// - health: an empty data dir (initdb and every migration at start);
// - start-data-dir: a data dir of the test's own, inspected after SIGTERM;
// - fleet: a second web process on a shared server's database (launchTestServer with databaseUrl).
// ledger-core starts no server (the ledger called in-process on its own database).
import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import net from "node:net";
import pg from "pg";
import { seedEmbeddedDatabase } from "./embedded-template";
import { migratedTemplate } from "./postgres-template";
import { resetDatabase, type Snapshot } from "./database-reset";
import { TEST_FORGET_KEY } from "./forget-key";

export const ADMIN_EMAIL = "admin@test.local";
export const ADMIN_PASSWORD = "correct-horse-battery-staple";
export const ADMIN_KEY = "pk_testadmin1_" + "a".repeat(32);

export type TestDatabase = "pglite" | "postgres";
export const testDatabase = (): TestDatabase => (process.env.PROCTOR_TEST_DB === "postgres" ? "postgres" : "pglite");

export type TestServer = {
  baseUrl: string;
  databaseUrl: string;
  kind: TestDatabase;
  /** A pg pool on the server's database for assertions on what was (not) written. */
  sql: pg.Pool;
  output: () => string;
  /** The server's process id. */
  pid: number;
  /** Stops the server process (SIGTERM) and starts it again on the same database and port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
  kill(signal?: NodeJS.Signals): void;
};

const root = path.resolve(import.meta.dirname, "../..");
/** `npm start`'s heap flags (--max-old-space-size, --max-semi-space-size), read from package.json. */
const START_HEAP_FLAGS = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: { start: string } }).scripts.start
  .split(/\s+/)
  .filter((arg) => /^--max-[a-z-]+-size=\d+$/.test(arg));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

export function postgresBaseUrl(): string {
  return process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
}

/**
 * A new database: empty, migrated (a clone of ./postgres-template.ts's template), or a copy of
 * `template` (whose idle connections, e.g. a finished migration's pool, are ended first).
 */
export async function createPostgresDatabase(opts: { template?: string; migrated?: boolean } = {}): Promise<{ url: string; drop(): Promise<void> }> {
  const base = new URL(postgresBaseUrl());
  const name = `proctor_it_${process.pid}_${randomBytes(4).toString("hex")}`;
  const template = opts.migrated ? await migratedTemplate(base.toString()) : opts.template;
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  if (opts.template) await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [opts.template]);
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${pg.escapeIdentifier(template)}` : ""}`);
  await admin.end();
  const url = new URL(base.toString());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base.toString() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

type ServerOptions = {
  env?: Record<string, string>;
  kind?: TestDatabase;
  /** The server starts from nothing (PGlite: initdb; both: every migration at start) instead of a migrated copy. */
  emptyDataDir?: boolean;
  /** A server of this file's own, e.g. to restart it. */
  dedicated?: boolean;
  /** A data dir the caller made and keeps (stop() leaves it); a new temporary one otherwise. */
  dataDir?: string;
  /** A database the caller made and keeps, passed as DATABASE_URL (start.ts's PostgreSQL path, whatever serves it). */
  databaseUrl?: string;
  /** How long start-up may take until /api/health answers (90 s; benchmarks on a loaded machine wait longer). */
  startTimeoutMs?: number;
};

/**
 * The servers the integration suite shares, by their environment beyond the defaults; a file
 * takes the first whose environment includes its own. Persona actions are on in the first: no
 * file sharing it tests them off. The second has no in-process worker (shadow-evaluation,
 * shadow-durability, job-retention and fleet run their own), persona actions off (persona-restart)
 * and a NEXTAUTH_SECRET of its own (fleet starts a second web process with it on its database).
 * The third is read-only with single sign-on (auth's second part, persona-readonly).
 */
export const SHARED_SERVERS: Record<string, string>[] = [
  // A short OTLP settle time (otlp.test.ts): only OTLP exports read it.
  { PROCTOR_PERSONA_ACTIONS: "1", PROCTOR_LLM_BASE_URL: "", PROCTOR_LLM_API_KEY: "", PROCTOR_OTLP_SETTLE_MS: "300" },
  { PROCTOR_WORKER: "0", PROCTOR_PSEUDONYM_KEY: "", NEXTAUTH_SECRET: "fleet-test-secret-shared-by-every-web-process" },
  {
    PROCTOR_READ_ONLY: "1",
    PROCTOR_PERSONA_ACTIONS: "1",
    PROCTOR_LLM_BASE_URL: "",
    PROCTOR_LLM_API_KEY: "",
    PROCTOR_OIDC_ISSUER: "https://idp.invalid/realms/acme",
    PROCTOR_OIDC_CLIENT_ID: "proctor",
    PROCTOR_OIDC_CLIENT_SECRET: "not-a-real-secret",
    PROCTOR_OIDC_NAME: "Acme SSO",
  },
];
/**
 * A web process of a fleet (tests/integration/fleet.test.ts): the second shared server's
 * environment, so that its first process is that server and a second one joins its database.
 */
export const FLEET_WEB_ENV = SHARED_SERVERS[1];
/** Where the integration suite's global setup tells test files its control port's URL. */
export const SHARED_SERVERS_VAR = "PROCTOR_SHARED_TEST_SERVERS";
export type SharedServer = {
  env: Record<string, string>;
  baseUrl: string;
  databaseUrl: string;
  kind: TestDatabase;
  pid: number;
  logFile: string;
  snapshot: Snapshot;
};

export async function startTestServer(opts: ServerOptions = {}): Promise<TestServer> {
  const control = process.env[SHARED_SERVERS_VAR];
  const index = SHARED_SERVERS.findIndex((env) => Object.entries(opts.env ?? {}).every(([k, v]) => env[k] === v));
  const sharable = control && !opts.dedicated && !opts.emptyDataDir && !opts.dataDir && !opts.databaseUrl && (opts.kind ?? testDatabase()) === testDatabase() && index >= 0;
  if (!sharable) return launchTestServer(opts);
  // Files run in parallel workers: each worker has its own set, so a reset never hits a file
  // still running on another worker.
  const set = `${control}/servers/${index}/${process.env.VITEST_POOL_ID ?? "1"}`;
  const r = await fetch(set, { method: "POST" });
  if (!r.ok) throw new Error(`the shared test server did not start: ${await r.text()}`);
  return attachShared(`${set}/restart`, (await r.json()) as SharedServer);
}

async function attachShared(restartUrl: string, shared: SharedServer): Promise<TestServer> {
  const sql = new pg.Pool({ connectionString: shared.databaseUrl, max: 2 });
  sql.on("error", () => {});
  await resetDatabase(sql, shared.snapshot);
  const logStart = statSync(shared.logFile).size;
  return {
    baseUrl: shared.baseUrl,
    databaseUrl: shared.databaseUrl,
    kind: shared.kind,
    sql,
    output: () => readFileSync(shared.logFile).subarray(logStart).toString("utf8"),
    pid: shared.pid,
    async restart() {
      const r = await fetch(restartUrl, { method: "POST" });
      if (!r.ok) throw new Error(`restarting the shared test server failed: ${await r.text()}`);
    },
    kill: () => {
      throw new Error("a shared test server cannot be killed: use startTestServer({ dedicated: true })");
    },
    async stop() {
      await sql.end().catch(() => {});
    },
  };
}

/** What test servers (and a test's own worker) may send webhooks to: the loopback receivers. */
export const WEBHOOK_TEST_TARGETS = "127.0.0.0/8,::1";

/** A server of its own; `logFile` also receives its output. */
export async function launchTestServer(opts: ServerOptions & { logFile?: string } = {}): Promise<TestServer> {
  const kind = opts.kind ?? testDatabase();
  const port = await freePort();
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(tmpdir(), "proctor-test-"));
  let databaseUrl: string;
  let dropDatabase = async () => {};
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PORT: String(port),
    HOST: "127.0.0.1",
    PROCTOR_DATA_DIR: dataDir,
    PROCTOR_ADMIN_EMAIL: ADMIN_EMAIL,
    PROCTOR_ADMIN_PASSWORD: ADMIN_PASSWORD,
    PROCTOR_API_KEY: ADMIN_KEY,
    PROCTOR_SKIP_BUILD: "1",
    NEXTAUTH_URL: `http://127.0.0.1:${port}`,
    // Webhook receivers in the tests listen on loopback, which the URL policy refuses by default.
    PROCTOR_WEBHOOK_ALLOWED_TARGETS: WEBHOOK_TEST_TARGETS,
    PROCTOR_FORGET_KEY: TEST_FORGET_KEY,
    ...opts.env,
  };
  if (opts.databaseUrl) {
    databaseUrl = opts.databaseUrl;
    env.DATABASE_URL = databaseUrl;
  } else if (kind === "postgres") {
    const created = await createPostgresDatabase({ migrated: !opts.emptyDataDir });
    databaseUrl = created.url;
    dropDatabase = created.drop;
    env.DATABASE_URL = databaseUrl;
  } else {
    const pglitePort = await freePort();
    env.PROCTOR_PGLITE_PORT = String(pglitePort);
    if (!opts.emptyDataDir) await seedEmbeddedDatabase(dataDir);
    delete env.DATABASE_URL;
    databaseUrl = `postgresql://postgres@127.0.0.1:${pglitePort}/postgres?sslmode=disable`;
  }
  let out = "";
  let child: ChildProcess;
  const baseUrl = `http://127.0.0.1:${port}`;
  const launch = async () => {
    // The heap sizes are the ones `npm start` uses (package.json): tests and benchmarks see its GC.
    // tsx as an import, not its CLI: one process (the CLI is a second one that relays signals to it).
    const started = spawn(process.execPath, [...START_HEAP_FLAGS, "--import", "tsx", path.join(root, "scripts/start.ts")], {
      cwd: root,
      env: env as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child = started;
    const collect = (d: Buffer) => {
      out += d;
      if (opts.logFile) appendFileSync(opts.logFile, d);
    };
    started.stdout!.on("data", collect);
    started.stderr!.on("data", collect);
    // Generous: on the shared machine under load a start has taken over 90 s.
    await waitFor(async () => {
      if (started.exitCode !== null) throw new Error(`server exited early:\n${out}`);
      const r = await fetch(`${baseUrl}/api/health`).catch(() => null);
      return r?.ok ?? false;
    }, opts.startTimeoutMs ?? 180_000, () => out); // a start takes over 90 s on a machine loaded by parallel suites
  };
  const terminate = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null) child.kill("SIGKILL");
  };
  try {
    await launch();
  } catch (e) {
    // A server that never answered must not outlive the test that gave up on it.
    await terminate();
    await dropDatabase().catch(() => {});
    if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    throw e;
  }
  const sql = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  // Idle connections die with an embedded database on restart; the pool replaces them.
  sql.on("error", () => {});
  return {
    baseUrl,
    databaseUrl,
    kind,
    sql,
    output: () => out,
    get pid() {
      return child.pid!;
    },
    kill: (signal = "SIGKILL") => child.kill(signal),
    async restart() {
      await terminate();
      await launch();
    },
    async stop() {
      await sql.end().catch(() => {});
      await terminate();
      await dropDatabase();
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, describe: () => string = () => "") {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out after ${timeoutMs} ms\n${describe()}`);
}
