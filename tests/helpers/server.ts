// Starts the real console (scripts/start.ts, the built app) on a fresh database for a test
// file: embedded PGlite in a temp dir, or a new database on the PostgreSQL server.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import net from "node:net";
import pg from "pg";
import { seedEmbeddedDatabase } from "./embedded-template";

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
  /** The launcher's process id (tsx runs start.ts in a child of it). */
  pid: number;
  /** Stops the server process (SIGTERM) and starts it again on the same database and port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
  kill(signal?: NodeJS.Signals): void;
};

const root = path.resolve(import.meta.dirname, "../..");

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

export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = new URL(postgresBaseUrl());
  const name = `proctor_it_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
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

/** `emptyDataDir`: PGlite starts from nothing (initdb and every migration at start) instead of a migrated copy. */
export async function startTestServer(opts: { env?: Record<string, string>; kind?: TestDatabase; emptyDataDir?: boolean } = {}): Promise<TestServer> {
  const kind = opts.kind ?? testDatabase();
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), "proctor-test-"));
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
    ...opts.env,
  };
  if (kind === "postgres") {
    const created = await createPostgresDatabase();
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
    // The heap cap is the one `npm start` uses (package.json): tests and benchmarks see its GC.
    const started = spawn(process.execPath, [path.join(root, "node_modules/tsx/dist/cli.mjs"), "--max-old-space-size=384", path.join(root, "scripts/start.ts")], {
      cwd: root,
      env: env as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child = started;
    started.stdout!.on("data", (d) => (out += d));
    started.stderr!.on("data", (d) => (out += d));
    await waitFor(async () => {
      if (started.exitCode !== null) throw new Error(`server exited early:\n${out}`);
      const r = await fetch(`${baseUrl}/api/health`).catch(() => null);
      return r?.ok ?? false;
    }, 90_000, () => out);
  };
  const terminate = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null) child.kill("SIGKILL");
  };
  await launch();
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
      rmSync(dataDir, { recursive: true, force: true });
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
