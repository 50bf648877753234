// `npm start`: one process that opens the database (embedded PGlite under ./.data unless
// DATABASE_URL is set), migrates, bootstraps the first admin, builds when needed, runs the
// background worker and serves the console.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync, readdirSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { startEmbeddedDatabase, type EmbeddedDatabase } from "../lib/db/embedded.ts";
import { createPrismaClient } from "../lib/db/prisma.ts";
import { ensureBootstrapApiKey, ensureFirstAdmin } from "../lib/auth/bootstrap.ts";
import { checkSession } from "../lib/auth/sessions.ts";
import { startWorkerRuntime, workerOptionsFromEnv } from "../lib/jobs/runtime.ts";
// Registers the learning engine's job handlers (cadence promotion cycles) with the worker.
import "../lib/learning/jobs.ts";
// Registers persona evolution's opt-in daily review job.
import "../lib/persona/jobs.ts";
// Registers webhook delivery (signed POSTs with retries).
import "../lib/webhooks/jobs.ts";
// OTLP trace assembly and the expiry of staged spans.
import "../lib/otlp/jobs.ts";
import { applyMigrations } from "./db/migrate.ts";
import { answerClientError, requestGate } from "../lib/api/gate.ts";

const root = path.resolve(import.meta.dirname, "..");
const dataDir = path.resolve(root, process.env.PROCTOR_DATA_DIR ?? ".data");
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "0.0.0.0";
const embeddedUrlFile = path.join(dataDir, "embedded.url");
/** Where this console answers, for `npm run seed:demo`'s links (another shell, maybe another PORT). */
const consoleUrlFile = path.join(dataDir, "console.url");

mkdirSync(dataDir, { recursive: true });
// Where threads the server starts find their sources (lib/otlp/staging-thread.ts).
process.env.PROCTOR_ROOT = root;
process.env.NEXT_TELEMETRY_DISABLED = "1";
process.env.NEXTAUTH_SECRET ??= persistedSecret("nextauth-secret");
// Forgotten accounts are known by an HMAC under this key, kept out of the database (lib/accounts/forget-key.ts).
process.env.PROCTOR_FORGET_KEY ||= persistedSecret("forget-key");
process.env.NEXTAUTH_URL ??= `http://localhost:${port}`;

let embedded: EmbeddedDatabase | null = null;
if (!process.env.DATABASE_URL) {
  embedded = await startEmbeddedDatabase(path.join(dataDir, "pglite"), Number(process.env.PROCTOR_PGLITE_PORT ?? 0));
  process.env.DATABASE_URL = embedded.url;
  // Lets `npm run seed:demo` and other scripts reach the running embedded database.
  writeFileSync(embeddedUrlFile, embedded.url + "\n");
  console.log(`database: embedded PGlite in ${path.relative(root, dataDir)}/pglite (loopback port ${embedded.port})`);
} else {
  console.log("database: PostgreSQL from DATABASE_URL");
}

const applied = await applyMigrations(process.env.DATABASE_URL, { onNotice: (m) => console.log(`migration notice: ${m}`) });
if (applied.length) console.log(`migrations applied: ${applied.join(", ")}`);

const database = createPrismaClient(process.env.DATABASE_URL, 4);
const admin = await ensureFirstAdmin(database, {
  email: process.env.PROCTOR_ADMIN_EMAIL,
  password: process.env.PROCTOR_ADMIN_PASSWORD,
});
if (admin) {
  console.log("\n  First admin created. This password is shown once:");
  console.log(`    email:    ${admin.email}`);
  console.log(`    password: ${admin.generated ? admin.password : "(from PROCTOR_ADMIN_PASSWORD)"}\n`);
}
const key = await ensureBootstrapApiKey(database, process.env.PROCTOR_API_KEY);
if (key === "created") console.log("API key from PROCTOR_API_KEY registered (scopes: ingest, admin, ledger:propose)");

if (process.env.PROCTOR_SKIP_BUILD !== "1" && needsBuild()) {
  console.log("building the console (first start or sources changed)…");
  const r = spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, DATABASE_URL: "" },
  });
  if (r.status !== 0) await shutdown(1, "build failed");
}

// tsx turns source maps on for every module, so Node would read and parse the map of each
// compiled chunk Next.js loads (38 MB): about a second of CPU per start. Those chunks keep Node's
// default (off) unless the operator asks for mapped stack traces with NODE_OPTIONS=--enable-source-maps.
if (![...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)].includes("--enable-source-maps")) process.setSourceMapsEnabled(false);
const { default: next } = await import("next");
const app = next({ dev: false, dir: root, hostname: "localhost", port });
await app.prepare();
const handle = app.getRequestHandler();
// The client address (login throttle, audit hash) is the socket's unless PROCTOR_TRUST_PROXY=1
// says a proxy in front reports it in X-Forwarded-For; otherwise any client could pick its own.
const trustProxy = process.env.PROCTOR_TRUST_PROXY === "1";
// Address, body-size and header checks that must run before Next.js reads anything (lib/api/gate.ts).
const gate = requestGate({ trustProxy, publicUrl: process.env.NEXTAUTH_URL, sessionCounts: async (id) => (await checkSession(database, id)).ok });
const server = createServer(async (req, res) => {
  if (!trustProxy) {
    req.headers["x-forwarded-for"] = req.socket.remoteAddress ?? "unknown";
    delete req.headers["x-real-ip"];
    // Nor may it name the public host or scheme (the origin check, Next's own action check, HSTS).
    delete req.headers["x-forwarded-host"];
    delete req.headers["x-forwarded-proto"];
  }
  if (await gate(req, res)) return;
  return handle(req, res);
});
server.on("clientError", answerClientError);
await new Promise<void>((resolve) => server.listen(port, host, resolve));
console.log(`Proctor is up: http://localhost:${port}`);
writeFileSync(consoleUrlFile, process.env.NEXTAUTH_URL + "\n");

const worker = process.env.PROCTOR_WORKER === "0" ? null : startWorkerRuntime(database, workerOptionsFromEnv());

let stopping = false;
async function shutdown(code: number, why: string) {
  if (stopping) return;
  stopping = true;
  console.log(`\nshutting down (${why})…`);
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await worker?.stop();
  await database.$disconnect();
  await embedded?.close();
  // Only the process that wrote the file removes it (and only while it still names this one):
  // a start on PostgreSQL must not break an embedded instance sharing the data dir.
  if (embedded && readIfExists(embeddedUrlFile)?.trim() === embedded.url) rmSync(embeddedUrlFile, { force: true });
  if (readIfExists(consoleUrlFile)?.trim() === process.env.NEXTAUTH_URL) rmSync(consoleUrlFile, { force: true });
  process.exit(code);
}
process.on("SIGINT", () => void shutdown(0, "SIGINT"));
process.on("SIGTERM", () => void shutdown(0, "SIGTERM"));

function readIfExists(file: string): string | null {
  return existsSync(file) ? readFileSync(file, "utf8") : null;
}

function persistedSecret(name: string): string {
  const file = path.join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  const value = randomBytes(32).toString("base64url");
  writeFileSync(file, value + "\n", { mode: 0o600 });
  return value;
}

/** A build is needed when there is none, or a source file is newer than it. */
function needsBuild(): boolean {
  const buildId = path.join(root, process.env.PROCTOR_DIST_DIR || ".next", "BUILD_ID");
  if (!existsSync(buildId)) return true;
  const built = statSync(buildId).mtimeMs;
  const newer = (p: string): boolean => {
    if (!existsSync(p)) return false;
    const st = statSync(p);
    if (!st.isDirectory()) return st.mtimeMs > built;
    return readdirSync(p).some((f) => f !== "generated" && newer(path.join(p, f)));
  };
  return ["app", "components", "lib", "proxy.ts", "next.config.mjs", "package.json"].some((p) => newer(path.join(root, p)));
}
