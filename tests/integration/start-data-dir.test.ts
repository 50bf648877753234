// `npm start` and `<data dir>/embedded.url` (README "Configuration", PROCTOR_DATA_DIR): only the process that wrote the
// file removes it. A start on DATABASE_URL shares the data dir with an embedded instance that
// wrote it, and must leave it on SIGTERM; an embedded start writes it and removes it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { launchTestServer, waitFor, type TestServer } from "../helpers/server";
import { openDomainDatabase } from "../helpers/domain-database";

// Each test starts and stops a server of its own: the suite's per-test limit is for shared servers.
const LAUNCH_LIMIT_MS = 240_000;
const dirs: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "proctor-start-"));
  dirs.push(dir);
  return dir;
};
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
/**
 * SIGTERM, then wait for the process to finish its own shutdown (no SIGKILL fallback: under load
 * an embedded database can keep the event loop busy for a while), and check its handler ran.
 */
async function sigterm(server: TestServer) {
  server.kill("SIGTERM");
  await waitFor(async () => !alive(server.pid), 120_000, server.output);
  // Its last output can trail the exit.
  await waitFor(async () => server.output().includes("shutting down (SIGTERM)"), 10_000, server.output);
  await server.stop();
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("embedded.url in the data dir", () => {
  it("is left alone on SIGTERM by a start on DATABASE_URL, which never wrote it", async () => {
    const dir = dataDir();
    const file = path.join(dir, "embedded.url");
    // What a running embedded instance sharing ./.data wrote.
    const other = "postgresql://postgres@127.0.0.1:5999/postgres?sslmode=disable\n";
    writeFileSync(file, other);
    const database = await openDomainDatabase({ migrate: false });
    try {
      const server = await launchTestServer({ dataDir: dir, databaseUrl: database.url, dedicated: true });
      expect(server.output()).toContain("database: PostgreSQL from DATABASE_URL");
      expect((await fetch(`${server.baseUrl}/api/health`)).status).toBe(200);
      await sigterm(server);
    } finally {
      await database.close();
    }
    expect(readFileSync(file, "utf8")).toBe(other);
  }, LAUNCH_LIMIT_MS);

  it("is written by an embedded start while it runs and removed by it on SIGTERM", async () => {
    const dir = dataDir();
    const file = path.join(dir, "embedded.url");
    const server = await launchTestServer({ kind: "pglite", dataDir: dir, dedicated: true });
    expect(readFileSync(file, "utf8").trim()).toMatch(/^postgres(ql)?:\/\/.*127\.0\.0\.1:\d+/);
    await sigterm(server);
    expect(existsSync(file)).toBe(false);
  }, LAUNCH_LIMIT_MS);
});
